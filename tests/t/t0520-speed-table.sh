# The speed table in Misc/BENCHMARKS is what its command prints from the committed results:
# run again, Tools/scripts/speed-table gives the same lines.  Measurements live in that one
# document: the README points to it and holds none of the table's lines.

test_benchmarks_holds_the_printed_table_and_readme_none() {
	require python3
	"$SRCDIR/Tools/scripts/speed-table" "$SRCDIR/Misc/results/speed" > table.txt
	[ "$(wc -l < table.txt)" -ge 2 ] || fail "speed-table printed no rows"
	sed 's/^/    /' table.txt > indented.txt
	grep -F -x -f indented.txt "$SRCDIR/Misc/BENCHMARKS" > found.txt || true
	expect_eq "$(wc -l < found.txt)" "$(wc -l < indented.txt)" "speed-table lines found in Misc/BENCHMARKS"
	grep -F -x -f indented.txt "$SRCDIR/README" > found.txt || true
	expect_eq "$(wc -l < found.txt)" 0 "speed-table lines in README"
}

test_bad_input_is_refused() {
	require python3
	expect_status 1 "$SRCDIR/Tools/scripts/speed-table"
	expect_contains out 'usage: speed-table'
	mkdir empty
	expect_status 1 "$SRCDIR/Tools/scripts/speed-table" empty
	expect_contains out 'no \*-time\.json in empty'
	expect_status 1 "$SRCDIR/Tools/scripts/test-compare-table" empty
	expect_contains out 'no \*\.json in empty'
}

# Every table in Misc/BENCHMARKS is its command's output: after each line "    $ COMMAND" (a
# table script run from the source tree's top) and a blank line come exactly the lines COMMAND
# prints from the committed results, indented, and nothing more of the table.
test_every_table_in_benchmarks_is_what_its_command_prints() {
	require python3
	local doc=$SRCDIR/Misc/BENCHMARKS entry at cmd rows n=0
	grep -n '^    \$ ' "$doc" > commands.txt || fail "Misc/BENCHMARKS names no command"
	while IFS= read -r entry; do
		at=${entry%%:*} cmd=${entry#*:    \$ }
		case $cmd in
		Tools/scripts/*) ;;
		*) fail "Misc/BENCHMARKS line $at: '$cmd' is not a table script of Tools/scripts" ;;
		esac
		(cd "$SRCDIR" && sh -c "$cmd") > printed.txt || fail "'$cmd' failed"
		sed 's/^/    /; s/^ *$//' printed.txt > expected.txt
		rows=$(wc -l < expected.txt)
		[ "$rows" -ge 2 ] || fail "'$cmd' printed no table"
		sed -n "$((at + 1))p" "$doc" | grep -qx '' || fail "Misc/BENCHMARKS line $at: no blank line after the command"
		sed -n "$((at + 2)),$((at + 1 + rows))p" "$doc" > shown.txt
		diff -u expected.txt shown.txt > diff.txt ||
			{ cat diff.txt >&2; fail "Misc/BENCHMARKS line $at: the table is not what '$cmd' prints"; }
		sed -n "$((at + 2 + rows)),$((at + 3 + rows))p" "$doc" | grep -q '^    ' &&
			fail "Misc/BENCHMARKS line $at: the table goes on after what '$cmd' prints"
		n=$((n + 1))
	done < commands.txt
	expect_eq "$n" 14 "tables in Misc/BENCHMARKS (the test results, BOLT's training on clang 19 and gcc 12, the speed, the levers, the pipeline with more workers, the cross builds and their instructions, python's ThinLTO link split, the stack budget of 3.13, 3.14, 3.13 free-threaded and 3.14 free-threaded and what its bound costs)"
}

# The stack budget's tables (Misc/BENCHMARKS section 7) refuse what is not their results.
test_stack_tables_refuse_bad_input() {
	require python3
	printf 'not json' > bad.json
	printf '{"optimized": {"getattr": {"ok": true}}, "plain": {}}' > half.json
	printf '{"mode": "time", "workloads": []}' > timed.json
	expect_status 1 "$SRCDIR/Tools/scripts/stack-table" x=bad.json
	expect_contains out 'stack-table: bad.json: '
	expect_status 1 "$SRCDIR/Tools/scripts/stack-table" x=half.json
	expect_contains out "optimized path 'getattr' has no ok and per_level"
	expect_status 1 "$SRCDIR/Tools/scripts/stack-table" nolabel.json
	expect_contains out "is not LABEL=RESULT.json"
	expect_status 1 "$SRCDIR/Tools/scripts/bound-cost-table" x=timed.json
	expect_contains out 'not a profopt bench --callgrind JSON result'
	mkdir empty
	expect_status 1 "$SRCDIR/Tools/scripts/bound-cost-table" empty
	expect_contains out 'holds no LABEL.json'
}

# BOLT's training table (Misc/BENCHMARKS section 2) refuses what is not its results.
test_bolt_train_table_refuses_bad_input() {
	require python3
	mkdir bad none plain timed
	printf 'not json' > bad/x-callgrind.json
	expect_status 1 "$SRCDIR/Tools/scripts/bolt-train-table" bad
	expect_contains out 'bolt-train-table: bad/x-callgrind.json: '
	expect_status 1 "$SRCDIR/Tools/scripts/bolt-train-table" none
	expect_contains out 'no callgrind run of prebolt and a rewrite'
	printf '{"mode": "instructions", "callgrind_options": "", "workloads": []}' > plain/x-callgrind.json
	expect_status 1 "$SRCDIR/Tools/scripts/bolt-train-table" plain
	expect_contains out 'not a callgrind run with cache and branch simulation'
	cp "$SRCDIR"/Misc/results/bolt-train/3.13.5-clang19/*-callgrind*.json timed/
	printf '{"mode": "instructions"}' > timed/x-time.json
	expect_status 1 "$SRCDIR/Tools/scripts/bolt-train-table" timed
	expect_contains out 'x-time.json: not a wall-time run'
	expect_status 1 "$SRCDIR/Tools/scripts/bolt-train-table" nodir
	expect_contains out 'usage: bolt-train-table DIR'
}

# The lever table (Misc/BENCHMARKS section 8) refuses what is not its results.
test_lever_table_refuses_bad_input() {
	require python3
	mkdir nobase badtsv empty
	printf '{"mode": "instructions", "callgrind_options": "--cache-sim=yes --branch-sim=yes", "workloads": []}' > nobase/x-callgrind.json
	expect_status 1 "$SRCDIR/Tools/scripts/lever-table" nobase
	expect_contains out 'x-callgrind.json: no interpreter named base and a lever'
	printf 'only two\tcolumns\n' > badtsv/not-measured.tsv
	expect_status 1 "$SRCDIR/Tools/scripts/lever-table" badtsv
	expect_contains out 'not-measured.tsv line 1: not COMBINATION<TAB>LEVER<TAB>why'
	expect_status 1 "$SRCDIR/Tools/scripts/lever-table" empty
	expect_contains out 'no \*-callgrind.json and no not-measured.tsv'
	expect_status 1 "$SRCDIR/Tools/scripts/lever-table" nodir
	expect_contains out 'usage: lever-table DIR'
	mkdir badstack
	printf 'x\tlever\twhy\n' > badstack/not-measured.tsv
	printf '# combination\tinterpreter\twithin\tlimit\tpaths\n3.13-x\tbase\t50\t20\t59\n' > badstack/stack-budget.tsv
	expect_status 1 "$SRCDIR/Tools/scripts/lever-table" badstack
	expect_contains out 'stack-budget.tsv line 2: not COMBINATION<TAB>INTERPRETER<TAB>WITHIN<TAB>LIMIT<TAB>PATHS'
}
