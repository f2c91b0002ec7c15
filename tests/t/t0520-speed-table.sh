# The speed table in README and Misc/BENCHMARKS is what its command prints from the committed
# results: run again, Tools/scripts/speed-table gives the same lines.

test_readme_and_benchmarks_hold_the_printed_table() {
	require python3
	"$SRCDIR/Tools/scripts/speed-table" "$SRCDIR/Misc/results/speed" > table.txt
	[ "$(wc -l < table.txt)" -ge 2 ] || fail "speed-table printed no rows"
	sed 's/^/    /' table.txt > indented.txt
	local doc
	for doc in README Misc/BENCHMARKS; do
		grep -F -x -f indented.txt "$SRCDIR/$doc" > found.txt || true
		expect_eq "$(wc -l < found.txt)" "$(wc -l < indented.txt)" "speed-table lines found in $doc"
	done
}

test_bad_input_is_refused() {
	require python3
	expect_status 1 "$SRCDIR/Tools/scripts/speed-table"
	expect_contains out 'usage: speed-table'
	mkdir empty
	expect_status 1 "$SRCDIR/Tools/scripts/speed-table" empty
	expect_contains out 'no \*-time\.json in empty'
}
