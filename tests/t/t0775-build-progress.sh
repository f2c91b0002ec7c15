# t0775: progress of a compile stage (issue 16): units compiled out of the last build's total,
# the link under way and the time left, as heartbeat lines off a terminal.

test_run_counts_units_against_the_last_total() {
	echo 4 > units.count
	"$PROFOPT" run --label=build --log=build.log --units=units.count --heartbeat=0.3 -- sh -c '
		echo "gcc -c -o a.o a.c"; sleep 1.5
		echo "gcc -c -o b.o b.c"; sleep 1.5
		echo "gcc -o prog a.o b.o"; sleep 1.5' 2> progress.out || { cat progress.out; fail "profopt run"; }
	expect_contains progress.out 'build: running, 1/4 units, about .* left, '
	expect_contains progress.out 'build: running, 2/4 units, linking prog, [0-9.]+ s elapsed'
	expect_eq "$(cat units.count)" 2 "the total recorded for the next build"
}

test_run_without_a_total_counts_and_a_failure_keeps_the_total() {
	"$PROFOPT" run --label=build --log=build.log --units=units.count --heartbeat=0.3 -- sh -c '
		echo "cc -c -o a.o a.c"; sleep 2' 2> progress.out
	expect_contains progress.out 'build: running, 1 units, '
	expect_not_contains progress.out 'left'
	expect_eq "$(cat units.count)" 1 "the total after the first build"
	set +e
	"$PROFOPT" run --label=build --log=build.log --units=units.count -- sh -c 'echo "cc -c -o a.o a.c"; echo "cc -c -o b.o b.c"; exit 3' 2> fail.out
	rc=$?
	set -e
	expect_eq "$rc" 3 "exit status of a failed build"
	expect_eq "$(cat units.count)" 1 "the total after a failed build"
}

test_pipeline_records_the_fixture_units() {
	configured_fixture gcc
	make profile-opt > make.out 2>&1 || { cat make.out; fail "make profile-opt"; }
	expect_eq "$(cat pgo/units.count)" 2 "units the fixture's builds compiled"
}

# A stage of several commands (BOLT's: instrument, train, rewrite) records its whole duration,
# counted from a file made when it began, not only its last command's.
test_a_stage_of_several_commands_counts_from_its_start() {
	touch -d '7 seconds ago' started
	"$PROFOPT" run --label=last --log=last.log --stamp=last.stamp --since=started -- true 2> err || { cat err; fail "run"; }
	expect_contains err '==> last: done in 0\.[0-9] s'
	python3 -c 'import json,sys; s=json.load(open("last.stamp"))["seconds"]; assert 7 <= s < 60, s' || fail "stamp: $(cat last.stamp)"
	"$PROFOPT" run --label=alone --log=alone.log --stamp=alone.stamp --since=nosuch -- true 2> err || { cat err; fail "run"; }
	python3 -c 'import json,sys; s=json.load(open("alone.stamp"))["seconds"]; assert s < 5, s' || fail "stamp: $(cat alone.stamp)"
}
