# One run at a time, from zero: a timed-out task's whole process group is killed, profopt
# train killed by a signal kills its tasks' groups, a straggler left by a kill -9 of make never
# reaches the resumed run's profile, and a second make profile-opt in the same directory is
# refused, naming the process that holds the lock.

# Waits up to 20 s for a process whose command line matches $1.
wait_for_process() {
	local i
	for i in $(seq 1 100); do pgrep -f "$1" > /dev/null && return 0; sleep 0.2; done
	fail "no process matching '$1' started"
}

test_timeout_kills_the_whole_group() {
	# The task's shell dies of SIGTERM; its child ignores SIGTERM and would leave a mark after
	# 8 s: only a SIGKILL sent to the group once the leader is gone stops it.
	cat > task.sh <<-EOF
	#!/bin/sh
	(trap '' TERM; sleep 8; touch "$PWD/mark") &
	sleep 30
	EOF
	chmod +x task.sh
	expect_status 0 "$PROFOPT" train --timeout=1 --min-ran=0 --results=r.json "$PWD/task.sh"
	expect_contains out '1 of 1 training tasks timed out'
	expect_eq "$(json_get r.json timeout)" 1
	sleep 8
	test ! -f mark || fail "a process of the timed-out task ran on after SIGTERM"
}

test_stragglers_of_a_finished_task_are_stopped() {
	cat > task.sh <<-EOF
	#!/bin/sh
	(sleep 3; touch "$PWD/mark") &
	exit 0
	EOF
	chmod +x task.sh
	expect_status 0 "$PROFOPT" train --log-dir=logs --results=r.json "$PWD/task.sh"
	expect_contains logs/001-*.log 'processes of this task were still running after it ended: stopped'
	sleep 4
	test ! -f mark || fail "a process left by the task ran on after training"
}

test_signals_to_train_kill_the_task_groups() {
	local sig
	for sig in HUP TERM INT; do
		local task="sleep 61.$RANDOM"
		"$PROFOPT" train "$task" 2> err.$sig &
		local pid=$!
		wait_for_process "^$task"
		kill -$sig $pid
		local rc=0
		wait $pid || rc=$?
		expect_eq "$rc" "$((128 + $(kill -l $sig)))" "exit status after SIG$sig"
		expect_contains err.$sig 'training interrupted by signal'
		! pgrep -f "^$task" > /dev/null || fail "a task survived SIG$sig to profopt train"
	done
}

# The first run is killed -9 (make, profopt and all, but not the training task, in its own
# process group) while a task keeps running and writing profiles; the resumed run must not
# count them: main() ran exactly once per task of the resumed run.
check_straggler() {
	configured_fixture "$1"
	cat > straggler.sh <<-'EOF'
	#!/bin/sh
	i=0
	while [ $i -lt 40 ]; do ./toy ppas 100 > /dev/null; sleep 0.25; i=$((i + 1)); done
	EOF
	chmod +x straggler.sh
	printf 'straggler\t%s/straggler.sh\n' "$PWD" > first.txt
	printf 't1\tsh -c "sleep 2; ./toy ppas 100"\nt2\tsh -c "sleep 2; ./toy ppas 100"\nt3\tsh -c "sleep 2; ./toy ppas 100"\n' > second.txt
	setsid make profile-opt TRAIN_TASKS=first.txt > first.out 2>&1 &
	local pid=$!
	wait_for_process "$PWD/straggler.sh"
	sleep 0.5
	kill -9 -- -"$pid"
	wait "$pid" || true
	pgrep -f "$PWD/straggler.sh" > /dev/null || fail "the straggler did not survive the kill"
	test ! -f pgo/train.stamp || fail "train stamp after kill -9"
	expect_status 0 make profile-opt TRAIN_TASKS=second.txt PGO_JOBS=3
	pgrep -f "$PWD/straggler.sh" > /dev/null || fail "the straggler ended before the resumed run did: no proof"
	pkill -f "$PWD/straggler.sh" || true
	expect_contains out '==> training'
	expect_contains out 'training: 3 of 3 tasks ran'
	expect_contains out 'verify: interp.o: used profile data'
}

test_straggler_never_reaches_the_profile_gcc() {
	check_straggler gcc
	expect_eq "$(gcc_main_count)" 3 "main's count (one per task)"
	# The straggler wrote, but into its own run's directory.
	find pgo/run.* -name main.gcda 2>/dev/null | grep -q . || fail "the straggler's profile is nowhere: no proof"
}

test_straggler_never_reaches_the_profile_clang() {
	check_straggler clang
	local llvm_profdata; llvm_profdata=$(sed -n 's/^LLVM_PROFDATA = //p' pgo-config.mk)
	"$llvm_profdata" show --function=main --counts pgo/merged.profdata > show.out
	local max; max=$(sed -n 's/.*Block counts: \[\(.*\)\]/\1/p' show.out | tr -d ' ' | tr ',' '\n' | sort -n | tail -n 1)
	expect_eq "$max" 3 "main's count (one per task of the resumed run)"
	ls pgo/run.*/straggler-*.profraw > /dev/null 2>&1 || fail "the straggler's profile is nowhere: no proof"
	test ! -e pgo/raw/straggler-*.profraw || fail "the straggler's profile is in the run's raw directory"
}

test_second_profile_opt_is_refused() {
	configured_fixture gcc
	printf 'slow\tsh -c "sleep 4; ./toy ppas 1000"\n' > slow.txt
	make profile-opt TRAIN_TASKS=slow.txt > first.out 2>&1 &
	local first=$!
	wait_for_process "profopt train.*$PWD/"
	expect_status 2 make profile-opt TRAIN_TASKS=slow.txt
	local holder; holder=$(sed -n 's/^pid //p' pgo/lock)
	[ -n "$holder" ] || fail "no pid in pgo/lock"
	expect_contains out "another run holds the lock $PWD/pgo/lock: pid $holder \\(make profile-opt in $PWD"
	kill -0 "$holder" || fail "the named holder $holder is not running"
	expect_contains /proc/"$holder"/cmdline 'lock'
	expect_not_contains out '==> training'
	# Nor can the profiles be removed under it.
	expect_status 2 make profile-removal
	expect_contains out "another run holds the lock $PWD/pgo/lock: pid $holder"
	# Nor the build cleaned, the pipeline's directory removed or the program installed: each
	# refuses before any recipe runs, naming the holder.
	local goal
	for goal in clean distclean pgo-clean pgo-clean-build install; do
		expect_status 2 make $goal
		expect_contains out "make $goal: profopt lock: error: a run holds the lock $PWD/pgo/lock: pid $holder"
	done
	test -f Makefile && test -d pgo || fail "a refused goal removed something"
	wait "$first" || { cat first.out; fail "the first run was disturbed"; }
	expect_contains first.out 'verify: interp.o: used profile data'
	# Once it is over, the lock is free, for a clean too.
	expect_status 0 make profile-opt
	expect_status 0 make clean
	test ! -f toy || fail "make clean left the program"
}

# The guard itself: --free answers for a lock nobody holds, one another run holds, and one
# this process runs under (PROFOPT_LOCK_HELD, which the holder sets for its command).
test_lock_free_answers() {
	expect_status 0 "$PROFOPT" lock --file=absent --free
	"$PROFOPT" lock --file=lk --what=holder -- sh -c 'echo "$PROFOPT_LOCK_HELD" > held; sleep 3' &
	local pid=$!
	for i in $(seq 1 50); do test -s held && break; sleep 0.1; done
	expect_eq "$(cat held)" "$PWD/lk" "PROFOPT_LOCK_HELD"
	expect_status 1 "$PROFOPT" lock --file=lk --free
	expect_contains out "a run holds the lock lk: pid $pid \(holder, since "
	expect_status 0 env PROFOPT_LOCK_HELD="$PWD/lk" "$PROFOPT" lock --file=lk --free
	expect_status 2 "$PROFOPT" lock --file=lk --free -- true
	wait "$pid"
	expect_status 0 "$PROFOPT" lock --file=lk --free
	mkfifo ff
	expect_status 1 "$PROFOPT" lock --file=ff --free
	expect_contains out 'not a regular file'
}

test_killed_lock_holder_stops_the_training() {
	configured_fixture gcc
	printf 'slow\tsleep 30.%s\n' "$RANDOM" > slow.txt
	local task; task=$(cut -f2 slow.txt)
	make profile-opt TRAIN_TASKS=slow.txt > first.out 2>&1 &
	local first=$!
	wait_for_process "^$task"
	local holder; holder=$(sed -n 's/^pid //p' pgo/lock)
	[ -n "$holder" ] || fail "no pid in pgo/lock"
	# The lock's holder dies (kill -9): the make under it gets SIGTERM, and so does the
	# training, whose shell died of it: nothing of that run goes on.
	kill -9 "$holder"
	wait "$first" && fail "make went on"
	for i in $(seq 1 50); do pgrep -f "^$task|profopt train.*$PWD/" > /dev/null || break; sleep 0.2; done
	! pgrep -f "^$task" > /dev/null || fail "the training task runs on after its pipeline was killed"
	! pgrep -f "profopt train.*$PWD/" > /dev/null || fail "profopt train runs on after its pipeline was killed"
	expect_contains pgo/logs/train/001-slow.log 'profopt: '
	test ! -f pgo/train.stamp || fail "train stamp"
	expect_status 0 make profile-opt
	expect_contains out 'verify: interp.o: used profile data'
}

# Issue 51: every goal that trains, builds, exports, compares or runs the program takes the
# lock or refuses beside a holder, naming it: profile-export, pgo-repro-check and pgo-bench
# (which ran their own training, merge and rebuild in the same directory beside a running
# profile-opt), and, the other way round, a profile-opt started beside a running profile-export.
test_pipeline_goals_refused_beside_a_running_profile_opt() {
	configured_fixture gcc
	printf 'slow\tsh -c "sleep 5; ./toy ppas 1000"\n' > slow.txt
	make profile-opt TRAIN_TASKS=slow.txt > first.out 2>&1 &
	local first=$!
	wait_for_process "profopt train.*$PWD/"
	local holder; holder=$(sed -n 's/^pid //p' pgo/lock)
	[ -n "$holder" ] || fail "no pid in pgo/lock"
	local goal
	for goal in profile-export pgo-repro-check "pgo-bench PGO_BENCH_COMMAND=true"; do
		expect_status 2 make $goal
		expect_contains out "holds the lock $PWD/pgo/lock: pid $holder \\(make profile-opt in $PWD"
		expect_not_contains out '==> (training|instrument|import|plain build)'
	done
	test ! -e pgo/repro && test ! -e pgo/bench-plain && test ! -e pgo/profile-export.tar.gz || fail "a refused goal did its work"
	wait "$first" || { cat first.out; fail "the first run was disturbed"; }
	expect_contains first.out 'verify: interp.o: used profile data'
	# The other way round: profile-export (training again after profile-removal) holds the lock.
	expect_status 0 make profile-removal
	make profile-export TRAIN_TASKS=slow.txt > export.out 2>&1 &
	local second=$!
	wait_for_process "profopt train.*$PWD/"
	holder=$(sed -n 's/^pid //p' pgo/lock)
	expect_status 2 make profile-opt
	expect_contains out "another run holds the lock $PWD/pgo/lock: pid $holder \\(make profile-export in $PWD"
	wait "$second" || { cat export.out; fail "profile-export was disturbed"; }
	test -f pgo/profile-export.tar.gz || fail "no export"
	# pgo-bench's own profile-opt runs under pgo-bench's lock (not refused by it)
	make pgo-bench PGO_BENCH_COMMAND='./toy ppas 10' PGO_BENCH_ROUNDS=2 PGO_BENCH_ARGS=--callgrind=no > bench.out 2>&1 ||
		{ cat bench.out; fail "pgo-bench"; }
}

# CPython's goals that build, run or test the interpreter the pipeline rebuilds refuse beside
# a holder (a source tree that is no CPython's: a goal that went on would fail at once).
test_cpython_goals_refused_beside_a_holder() {
	require_out_of_tree_configure
	require gcc
	mkdir -p nosrc/Python && : > nosrc/configure && : > nosrc/Python/ceval.c
	"$SRCDIR/configure" --enable-optimizations CC=gcc --with-python-source="$PWD/nosrc" > cfg.out 2>&1 || { cat cfg.out; fail "configure"; }
	rm nosrc/Python/ceval.c
	# the driver this tree builds, as a finished build has it (the check asks it at parse time)
	mkdir -p cpython/pgo Tools/profopt && cp "$PROFOPT" Tools/profopt/profopt
	"$PROFOPT" lock --file=cpython/pgo/lock --what=holder -- sleep 60 &
	local holder=$!
	for i in $(seq 1 100); do grep -q '^pid' cpython/pgo/lock 2>/dev/null && break; sleep 0.1; done
	local goal
	for goal in cpython-test cpython-test-compare buildbot pgo-coverage install-python profile-export pgo-repro-check pgo-bench; do
		expect_status 2 make $goal PGO_BENCH_COMMAND=true
		expect_contains out "holds the lock $PWD/cpython/pgo/lock: pid $holder \\(holder"
	done
	kill "$holder"; wait "$holder" || true
	test ! -e cpython/pgo/logs || fail "a refused goal ran a stage"
}
