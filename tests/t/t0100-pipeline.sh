# make profile-opt on the fixture project: the whole pipeline, with each compiler, and its
# failure modes (interrupted training, crashing and failing tasks, missing profile data).

check_round_trip() {
	make profile-opt > make.out 2>&1 || { cat make.out; fail "make profile-opt"; }
	expect_stamps configure instrument train merge clean use verify
	expect_contains make.out 'verify: interp.o: used profile data'
	expect_contains make.out '1 of 4 training tasks failed: fails'
	expect_eq "$(./toy ppas 10)" 90 "the optimized program's answer"
	# The optimized object differs from a plain build of the same source.
	$CC_UNDER_TEST -O2 -c -o plain.o interp.c
	! cmp -s plain.o interp.o || fail "interp.o is identical to a build without profile"
	# Nothing changed: a second run does nothing.
	make profile-opt > again.out 2>&1
	expect_eq "$(stages_run again.out)" "" "stages re-run with nothing changed"
}

test_round_trip_gcc() {
	configured_fixture gcc
	CC_UNDER_TEST=gcc check_round_trip
	expect_contains make.out 'merge: 2 \.gcda files'
	expect_contains make.out '^functions executed: +[1-9]'
	# The profile file itself: a gcov-tool that reads it proves it is well-formed.
	require gcov-tool
	gcov-tool merge -o merged-check . . > /dev/null 2>&1 || true
}

test_round_trip_clang() {
	configured_fixture clang
	CC_UNDER_TEST=clang check_round_trip
	expect_contains make.out 'merge: [0-9]+ raw profiles'
	test -s pgo/merged.profdata || fail "no merged profile"
	# The hot function has counts in the merged profile.
	local llvm_profdata; llvm_profdata=$(sed -n 's/^LLVM_PROFDATA = //p' pgo-config.mk)
	"$llvm_profdata" show --function=run --counts pgo/merged.profdata > show.out
	expect_contains show.out 'Block counts: \[[1-9]'
}

test_resume_after_interrupt_in_training() {
	configured_fixture gcc
	printf 'sum\t./toy ppas 1000\nslow\tsleep 60.101\n' > slow.txt
	setsid make profile-opt TRAIN_TASKS=slow.txt > first.out 2>&1 &
	local pid=$!
	for i in $(seq 1 100); do grep -q 'running: ' first.out 2>/dev/null && break; sleep 0.2; done
	grep -q '^training' first.out || { cat first.out; fail "training never started"; }
	kill -INT -- -"$pid"
	wait "$pid" && fail "make survived the interrupt"
	expect_contains first.out 'training interrupted'
	test ! -f pgo/train.stamp || fail "train stamp written by an interrupted run"
	test -f pgo/instrument.stamp || fail "instrument stamp lost"
	pgrep -f 'sleep 60.101' > /dev/null && fail "training task left running"
	make profile-opt > second.out 2>&1 || { cat second.out; fail "resumed run"; }
	expect_not_contains second.out '==> instrumented build'
	expect_contains second.out '==> training'
	expect_contains second.out 'verify: interp.o: used profile data'
}

test_resume_after_kill_9() {
	configured_fixture gcc
	printf 'slow\tsleep 60.202\n' > slow.txt
	make profile-opt TRAIN_TASKS=slow.txt > first.out 2>&1 &
	# Only this test's processes: the training command line names this directory (a regular
	# expression: the directory's own . + [ are escaped).
	local here
	here=$(printf '%s' "$PWD" | sed 's/[][\\.*^$+?(){}|]/\\&/g')
	for i in $(seq 1 100); do pgrep -f "profopt train.*$here/" > /dev/null && break; sleep 0.2; done
	sleep 0.5
	pkill -9 -f "profopt train.*$here/"   # a power loss, as far as profopt can tell
	pkill -f 'sleep 60.202' || true
	wait || true
	test ! -f pgo/train.stamp || fail "train stamp after kill -9"
	make profile-opt > second.out 2>&1 || { cat second.out; fail "resumed run"; }
	expect_contains second.out '==> training'
	expect_not_contains second.out '==> instrumented build'
	test -f pgo/verify.stamp
}

test_crashing_task_is_reported_and_does_not_spoil() {
	configured_fixture gcc
	printf 'a\t./toy ppas 1000\nb\t./toy ppmdxs 1000\nc\t./toy pdpapmsq 1000\ncrash\t./toy crash\n' > crash.txt
	make profile-opt TRAIN_TASKS=crash.txt PGO_MIN_RAN=75% > make.out 2>&1 || { cat make.out; fail "make"; }
	expect_contains make.out 'crash: crashed \(killed by signal 11'
	expect_contains make.out '1 of 4 training tasks crashed: crash; the processes that crashed wrote no counts'
	expect_contains make.out 'verify: interp.o: used profile data'
	test -f pgo/logs/train/004-crash.log || fail "no log for the crashing task"
	# verify's run of the optimized program crashes there too: excused, as in training
	expect_contains pgo/logs/verify-run.log 'crashed in the earlier run too \(--crashed-before\)'
}

test_too_few_tasks_ran_stops_the_build() {
	configured_fixture gcc
	printf 'a\t./toy ppas 1000\ncrash\t./toy crash\n' > crash.txt
	if make profile-opt TRAIN_TASKS=crash.txt > make.out 2>&1; then fail "the build went on"; fi
	expect_contains make.out 'only 1 of 2 training tasks ran to the end \(50%\), below the required 90%'
	test ! -f pgo/train.stamp && test ! -f pgo/use.stamp || fail "stamps after a failed training"
}

test_no_profile_data_is_an_error() {
	configured_fixture gcc
	if make profile-opt PGO_GEN_CFLAGS= PGO_GEN_LDFLAGS= > make.out 2>&1; then fail "built without profile data"; fi
	expect_contains make.out 'no profile data: no \.gcda files'
	test ! -f pgo/use.stamp || fail "a use stage ran without profile"
}

test_instrumented_program_that_cannot_start() {
	configured_fixture clang
	if make profile-opt PGO_TRAIN_LIST='./toy crash' > make.out 2>&1; then fail "went on"; fi
	expect_contains make.out 'list training tasks .*FAILED'
	test ! -f pgo/train.stamp || fail "train stamp"
}

test_clean_retain_profile_then_rebuild() {
	configured_fixture gcc
	make profile-opt > /dev/null 2>&1
	make clean-retain-profile > crp.out 2>&1 || { cat crp.out; fail "clean-retain-profile"; }
	test ! -f toy || fail "clean-retain-profile left the program"
	test -f interp.gcda || fail "clean-retain-profile lost the profile"
	make profile-opt > again.out 2>&1 || { cat again.out; fail "rebuild"; }
	expect_eq "$(stages_run again.out)" "==> rebuild with profile;==> verify;" "stages after clean-retain-profile"
	make profile-removal > /dev/null 2>&1
	test ! -f interp.gcda && test ! -f pgo/train.stamp || fail "profile-removal kept profiles"
	test -f toy || fail "profile-removal removed the program"
}

test_clang_parallel_training_merges_all_processes() {
	configured_fixture clang
	for i in $(seq 1 12); do printf 't%s\t./toy ppas 1000\n' "$i"; done > many.txt
	make profile-opt TRAIN_TASKS=many.txt PGO_JOBS=4 > make.out 2>&1 || { cat make.out; fail "make"; }
	local llvm_profdata; llvm_profdata=$(sed -n 's/^LLVM_PROFDATA = //p' pgo-config.mk)
	"$llvm_profdata" show --function=main --counts pgo/merged.profdata > show.out
	# Twelve processes ran main once each: none of their counts is lost in the pool files.
	expect_contains show.out 'Block counts: \[.*\b12\b'
}

# Two training workloads merged with weights: counts are main + 2 x extra.
weighted_fixture() {
	configured_fixture "$1"
	printf 'x1\t./toy ppas 100\nx2\t./toy ppas 100\nx3\t./toy ppas 100\n' > extra.txt
	make profile-opt PGO_WORKLOADS="main extra:2" PGO_TRAIN_ARGS_extra=--tasks=extra.txt > make.out 2>&1 || { cat make.out; fail "make"; }
	expect_contains make.out '==> training \(workloads main extra:2\)'
	expect_contains pgo/train.stamp '"workloads": "main:1 extra:2"'
	expect_contains make.out 'verify: interp.o: used profile data'
}

test_weighted_workloads_gcc() {
	weighted_fixture gcc
	# main() ran 4 times in the main workload and 3 times in the extra one, weighted 2.
	expect_eq "$(gcc_main_count)" 10 "main's count"
}

# Every workload's tasks run in PGO_TRAIN_WORK_DIR, given once for the whole training (CPython's
# build tree): a workload may not carry its own --work-dir.
test_workloads_run_in_the_training_work_dir() {
	configured_fixture gcc
	mkdir sub && ln -s ../toy sub/toy
	printf 'x1\tpwd > where.txt && ./toy ppas 100\n' > extra.txt
	make profile-opt PGO_WORKLOADS="main extra:1" PGO_TRAIN_ARGS_extra=--tasks=extra.txt PGO_TRAIN_WORK_DIR="$PWD/sub" \
		> make.out 2>&1 || { cat make.out; fail "make"; }
	expect_eq "$(cat sub/where.txt)" "$PWD/sub" "the extra workload's directory"
	expect_contains make.out 'verify: interp.o: used profile data'
	expect_status 2 "$PROFOPT" train --workload=a -C sub -- true
	expect_contains out "'-C' is for the whole training: give it before the first --workload"
}

test_weighted_workloads_clang() {
	weighted_fixture clang
	local llvm_profdata; llvm_profdata=$(sed -n 's/^LLVM_PROFDATA = //p' pgo-config.mk)
	"$llvm_profdata" show --function=main --counts pgo/merged.profdata > show.out
	expect_contains show.out 'Block counts: \[.*\b10\b'
}
