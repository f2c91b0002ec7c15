# Tools/scripts/pipeline-sim: the pipeline's wall time with more distcc workers, simulated from
# one real build's logs (Misc/results/distributed/).  What must hold whatever the figures are.

DATA=Misc/results/distributed/3.13.5-clang19-2workers-thinlto

# The cell of row $1 in column $2 (1: measured, 2: the measured setup simulated, 3...: workers).
cell() { awk -v row="$1" -v col="$2" '$1 == row { print $(col + 1); exit }' table.txt; }
# a >= b, for decimals.
at_least() { awk -v a="$1" -v b="$2" 'BEGIN { exit !(a + 0 >= b + 0) }'; }

test_more_workers_never_slower_and_never_below_the_critical_path() {
	require python3
	"$SRCDIR/Tools/scripts/pipeline-sim" "$SRCDIR/$DATA" > table.txt || fail "pipeline-sim failed"
	expect_contains table.txt '^stage +measured +sim 2x2 -j2 +1 worker +4 workers +16 workers +64 workers$'
	local row one four sixteen sixtyfour
	for row in instrument use total; do
		one=$(cell $row 3) four=$(cell $row 4) sixteen=$(cell $row 5) sixtyfour=$(cell $row 6)
		[ -n "$sixtyfour" ] || fail "no $row row"
		at_least "$one" "$four" && [ "$one" != "$four" ] || fail "$row: 1 worker $one s, not slower than 4 ($four s)"
		at_least "$four" "$sixteen" && [ "$four" != "$sixteen" ] || fail "$row: 4 workers $four s, not slower than 16 ($sixteen s)"
		at_least "$sixteen" "$sixtyfour" || fail "$row: 16 workers $sixteen s, faster than 64 ($sixtyfour s)"
	done
	# The stages that run here are their measured seconds in every column.
	for row in train merge verify; do
		expect_eq "$(cell $row 6)" "$(cell $row 1)" "$row at 64 workers"
	done
	# At 64 workers a stage is its critical path: the pieces add up to it (to rounding), and
	# it is never shorter than its longest compile on a worker.
	local stage sum longest
	for stage in instrument use; do
		awk -v s="$stage" '$0 ~ "^  " s " [0-9.]+ s:$" { on = 1; next } /^  [^ ]/ { on = 0 } on' table.txt > path.txt
		[ -s path.txt ] || fail "no critical path for $stage"
		sum=$(sed 's/ s .*/ s/' path.txt | awk '{ s += $(NF - 1) } END { print s }')
		awk -v a="$sum" -v b="$(cell $stage 6)" 'BEGIN { d = a - b; exit !(d < 0.3 && d > -0.3) }' ||
			fail "$stage: the critical path's pieces add up to $sum s, the table says $(cell $stage 6) s"
		longest=$(sed -n 's/^ *compiles on workers .*(longest [^ ]* \([0-9.]*\) s)$/\1/p' path.txt)
		[ -n "$longest" ] || fail "$stage: no longest compile in the critical path"
		at_least "$(cell $stage 6)" "$longest" || fail "$stage: 64 workers below its longest compile ($longest s)"
	done
	expect_contains table.txt '^    compiles on workers +[0-9.]+ s  \(longest Objects/unicodeobject\.o [0-9.]+ s\)$'
	expect_contains table.txt '^    links here +[0-9.]+ s  \(longest python [0-9.]+ s\)$'
	# python's ThinLTO link ran through thin-link: its backends are jobs on the workers
	expect_contains table.txt '^    LTO backends on workers +[0-9.]+ s  \(longest python: Python/ceval\.o [0-9.]+ s\)$'
}

test_the_validation_line_compares_the_measured_setup() {
	require python3
	"$SRCDIR/Tools/scripts/pipeline-sim" "$SRCDIR/$DATA" > table.txt || fail "pipeline-sim failed"
	expect_contains table.txt '^validation: the measured setup simulated'
	expect_contains table.txt '^  instrument +[0-9.]+ s simulated, +[0-9.]+ s measured \([-+][0-9.]+%\)$'
	expect_contains table.txt '^  use +[0-9.]+ s simulated, +[0-9.]+ s measured \([-+][0-9.]+%\)$'
	# The simulated measured setup, with the untimed residue, is the measured stage.
	expect_eq "$(cell instrument 2)" "$(cell instrument 1)" "instrument, measured setup"
	expect_eq "$(cell use 2)" "$(cell use 1)" "use, measured setup"
}

test_the_reduced_copy_reads_back_to_the_same_table() {
	require python3
	"$SRCDIR/Tools/scripts/pipeline-sim" "$SRCDIR/$DATA" > a.txt || fail "pipeline-sim failed"
	"$SRCDIR/Tools/scripts/pipeline-sim" --reduce "$SRCDIR/$DATA" again || fail "--reduce failed"
	"$SRCDIR/Tools/scripts/pipeline-sim" again > b.txt || fail "pipeline-sim on the reduced copy failed"
	diff -u a.txt b.txt || fail "the reduced copy prints another table"
}

test_bad_input_is_refused() {
	require python3
	local sim=$SRCDIR/Tools/scripts/pipeline-sim
	expect_status 1 "$sim"
	expect_contains out '^pipeline-sim: usage: pipeline-sim'
	expect_status 1 "$sim" --jobs=3 x
	expect_contains out '^pipeline-sim: unknown option --jobs=3'
	expect_status 1 "$sim" --workers=0 "$SRCDIR/$DATA"
	expect_contains out 'take whole numbers, 1 or more'
	expect_status 1 "$sim" nowhere
	expect_contains out '^pipeline-sim: nowhere is not a directory '
	mkdir empty
	expect_status 1 "$sim" empty
	expect_contains out '^pipeline-sim: no configure\.stamp in empty '
	cp -r "$SRCDIR/$DATA" nouse && rm nouse/use.stamp
	expect_status 1 "$sim" nouse
	expect_contains out '^pipeline-sim: no use\.stamp in nouse '
	cp -r "$SRCDIR/$DATA" nolog && rm nolog/distcc-use.log
	expect_status 1 "$sim" nolog
	expect_contains out 'no nolog/distcc-use\.log \(pipeline-sim needs a build with --with-distcc\)'
	cp -r "$SRCDIR/$DATA" local && grep -v ' compiled on ' "$SRCDIR/$DATA/distcc-use.log" > local/distcc-use.log
	expect_status 1 "$sim" local
	expect_contains out 'distcc-use\.log: no compile ran on a worker'
	cp -r "$SRCDIR/$DATA" notimes && rm notimes/thinlto/python/times.tsv
	expect_status 1 "$sim" notimes
	expect_contains out 'notimes/thinlto/summary\.txt names python, but .*python/times\.tsv is missing'
	cp -r "$SRCDIR/$DATA" broken && echo '{"stage": "train"}' > broken/train.stamp
	expect_status 1 "$sim" broken
	expect_contains out 'broken/train\.stamp: no seconds in it'
}
