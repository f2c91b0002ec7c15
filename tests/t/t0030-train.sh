# profopt train on its own: parallelism, timeouts, heartbeat, results, usage errors.

test_parallel_and_results_json() {
	printf 'one\tsleep 1\ntwo\tsleep 1\nthree\tsleep 1\nfour\tsleep 1\n' > tasks.txt
	start=$(date +%s)
	"$PROFOPT" train -j 4 --tasks=tasks.txt --results=r.json --stamp=t.stamp 2> err
	elapsed=$(( $(date +%s) - start ))
	[ "$elapsed" -lt 4 ] || fail "4 one-second tasks with -j4 took ${elapsed}s"
	expect_eq "$(json_get r.json passed)" 4
	expect_eq "$(json_get r.json results.2.name)" three
	expect_contains t.stamp '"stage": "train", "status": "ok"'
	expect_contains err 'training: 4 of 4 tasks ran .*, all passed'
}

test_timeout_is_enforced() {
	"$PROFOPT" train --timeout=1 --min-ran=0 --results=r.json 'sleep 30' 'true' 2> err
	expect_eq "$(json_get r.json timeout)" 1
	expect_contains err '1 of 2 training tasks timed out'
}

test_heartbeat_off_a_terminal() {
	"$PROFOPT" train --heartbeat=1 'sleep 3.5' 2> err
	[ "$(grep -c '^training \[' err)" -ge 3 ] || { cat err; fail "fewer than 3 progress lines in 3.5 s"; }
	expect_contains err 'ETA'
}

test_each_template_and_logs() {
	printf 'alpha\n# comment\n\nbeta\n' > names.txt
	"$PROFOPT" train --tasks=names.txt --each='echo hello {}' --log-dir=logs 2> err
	expect_contains logs/001-alpha.log 'hello alpha'
	expect_contains logs/002-beta.log 'hello beta'
	# a name that would begin a word of the command as an option is refused, naming it;
	# after a path it is a file name like any other
	printf 'alpha\n--plugin=x\n' > opt.txt
	expect_status 1 "$PROFOPT" train --tasks=opt.txt --each='echo {}' --log-dir=logs2
	expect_contains out "task '--plugin=x' in opt.txt starts with '-'"
	test ! -d logs2 || [ -z "$(ls logs2)" ] || fail "tasks ran before the refusal"
	"$PROFOPT" train --tasks=opt.txt --each='echo ./{}' --log-dir=logs3 2> err || { cat err; fail "./{} refused"; }
	expect_contains logs3/002---plugin_x.log '^\./--plugin=x$'
}

test_setenv_per_task() {
	# {} in a --setenv value becomes each task's (file-safe) name; other values are shared.
	printf 'alpha\nb/c d\n' > names
	"$PROFOPT" train -j 2 --tasks=names --each='sh -c "echo \$P \$Q"' --log-dir=logs \
		--setenv='P=raw/{}-%m.profraw' --setenv=Q=same 2> err
	expect_contains logs/001-alpha.log '^raw/alpha-%m.profraw same$'
	expect_contains logs/002-b_c_d.log '^raw/b_c_d-%m.profraw same$'
}

test_command_not_found_is_not_a_pass() {
	"$PROFOPT" train --min-ran=0 --results=r.json /nonexistent/prog 2> err
	expect_eq "$(json_get r.json not-started)" 1
	expect_contains err 'could not start'
}

test_all_pass_fails_on_one_failing_task() {
	# A failing task still ran: enough for a training, not for a check.
	expect_status 0 "$PROFOPT" train --stamp=t.stamp true false
	rm -f t.stamp
	expect_status 1 "$PROFOPT" train --all-pass --stamp=t.stamp --results=r.json true false
	expect_contains out '1 of 2 tasks did not pass \(--all-pass\): 1 failed, 0 crashed, timed out or did not start: false \(logs: '
	expect_eq "$(json_get r.json status)" failed
	test ! -e t.stamp || fail "a failed check wrote its stamp"
	expect_status 0 "$PROFOPT" train --all-pass --stamp=t.stamp true true
	test -f t.stamp || fail "no stamp after every task passed"
}

# A task that fails only beside another (a test timing itself under load) passes alone:
# --retry-alone runs a task that failed by its exit status again, by itself, after the others,
# and counts that run; one that fails alone too still fails, and a crash is not run again.
test_retry_alone_runs_a_failed_task_again_by_itself() {
	printf '%s\t%s\n' busy 'sh -c "touch busy; while [ ! -e checked ]; do sleep 0.1; done; rm busy"' \
		shy 'sh -c "if [ -e checked ]; then test ! -e busy; else while [ ! -e busy ]; do sleep 0.1; done; touch checked; exit 1; fi"' \
		> tasks.txt
	expect_status 1 "$PROFOPT" train -j2 --all-pass --tasks=tasks.txt
	expect_not_contains out 'alone'
	rm -f checked
	expect_status 0 "$PROFOPT" train -j2 --all-pass --retry-alone --stamp=t.stamp --results=r.json --tasks=tasks.txt
	expect_contains out '^training: 1 failed task run again, alone \(--retry-alone\)$'
	expect_contains out '^  shy: failed beside the others, passed alone; log: train-logs/002-shy\.alone\.log$'
	expect_eq "$(json_get r.json status)" ok
	test -f t.stamp || fail "no stamp though the failed task passed alone"
	rm -f checked t.stamp
	printf 'segv\tsh -c "kill -SEGV \\$\\$"\nno\tfalse\n' > bad.txt
	expect_status 1 "$PROFOPT" train -j2 --all-pass --retry-alone --stamp=t.stamp --tasks=bad.txt
	expect_contains out '^training: 1 failed task run again, alone'
	expect_contains out '1 failed, 1 crashed, timed out or did not start'
	expect_not_contains out 'passed alone'
	test ! -e t.stamp || fail "a stamp though a task failed alone too"
	# a failure the earlier run excuses (--failed-before) is not run again: it failed there too
	expect_status 0 "$PROFOPT" train --min-ran=0 --results=before.json false
	expect_status 0 "$PROFOPT" train --all-pass --retry-alone --failed-before=before.json false
	expect_not_contains out 'alone'
	expect_contains out 'excused, but named: false$'
}

test_failed_before_excuses_only_what_did_not_pass_in_training() {
	# As verify runs CPython's PGO tests on the optimized program: every task that passed in
	# training must pass again; one that failed (or crashed) there too is named and excused.
	printf 'ok\ttrue\nflaky\tfalse\nbroken\tfalse\nsegv\tsh -c "kill -SEGV \\$\\$"\n' > earlier.txt
	printf 'ok\ttrue\nflaky\ttrue\nbroken\tfalse\nsegv\tsh -c "kill -SEGV \\$\\$"\n' > now.txt
	expect_status 0 "$PROFOPT" train --min-ran=0 --results=training.json --tasks=earlier.txt
	expect_status 0 "$PROFOPT" train --all-pass --failed-before=training.json --stamp=t.stamp --tasks=now.txt
	expect_contains out '2 of the tasks that did not pass did not pass in the earlier run either \(--failed-before; a crash, timeout or failed start only by the same there\): excused, but named: broken, segv'
	test -f t.stamp || fail "no stamp though only excused tasks failed"
	# A task that passed in training and fails now is the optimized program's failure, named.
	printf 'ok\tfalse\nflaky\ttrue\nbroken\tfalse\nsegv\ttrue\n' > worse.txt
	rm -f t.stamp
	expect_status 1 "$PROFOPT" train --all-pass --failed-before=training.json --stamp=t.stamp --tasks=worse.txt
	expect_contains out 'error: 1 of 4 tasks did not pass \(--all-pass\): 1 failed, 0 crashed, timed out or did not start: ok \(logs: '
	expect_contains out 'excused, but named: broken$'
	test ! -e t.stamp || fail "a stamp though a task that passed in training failed"
	# Without the earlier results nothing is excused; a file that is not one is refused.
	expect_status 1 "$PROFOPT" train --all-pass --tasks=now.txt
	expect_contains out '2 of 4 tasks did not pass \(--all-pass\): 1 failed, 1 crashed, timed out or did not start: broken, segv'
	echo '{"stage": "train"}' > notresults.json
	expect_status 1 "$PROFOPT" train --all-pass --failed-before=notresults.json -- true
	expect_contains out 'failed-before=notresults.json: no "results" array'
}

test_no_crash_fails_on_a_crash_only() {
	# A task killed by a signal it was not sent fails the run; one that exits 1, or one
	# stopped by the timeout, does not (tests fail for reasons of their own; load is slow).
	printf 'ok\ttrue\nfails\tfalse\nslow\tsleep 30\n' > calm.txt
	expect_status 0 "$PROFOPT" train --no-crash --min-ran=0 --timeout=1 --stamp=t.stamp --tasks=calm.txt
	test -f t.stamp || fail "no stamp without a crash"
	rm -f t.stamp
	printf 'ok\ttrue\nfails\tfalse\nsegv\tkill -SEGV $$\n' > tasks.txt
	expect_status 0 "$PROFOPT" train --min-ran=0 --tasks=tasks.txt
	expect_status 1 "$PROFOPT" train --no-crash --min-ran=0 --stamp=t.stamp --results=r.json --log-dir=logs/check/run --tasks=tasks.txt
	expect_contains out 'segv: crashed \(killed by signal 11'
	expect_contains out '1 of 3 tasks crashed \(--no-crash\): segv; the program under test was killed by a signal \(logs: logs/check/run/\)'
	test -f logs/check/run/003-segv.log || fail "no log under the nested log directory"
	expect_eq "$(json_get r.json status)" failed
	test ! -e t.stamp || fail "a run with a crash wrote its stamp"
	# A crash the earlier run (its --results) had too is named and excused; a new one is not.
	expect_status 0 "$PROFOPT" train --no-crash --crashed-before=r.json --min-ran=0 --tasks=tasks.txt
	expect_contains out '1 of the crashed tasks crashed in the earlier run too \(--crashed-before\)'
	printf 'ok\tkill -SEGV $$\nsegv\tkill -SEGV $$\n' > two.txt
	expect_status 1 "$PROFOPT" train --no-crash --crashed-before=r.json --min-ran=0 --tasks=two.txt
	expect_contains out '1 of 2 tasks crashed \(--no-crash\)'
	echo '{"stage": "train"}' > foreign.json
	expect_status 1 "$PROFOPT" train --no-crash --crashed-before=foreign.json true
	expect_contains out 'foreign.json: no "results" array: not a profopt train --results file'
}

test_usage_errors() {
	expect_status 2 "$PROFOPT" train
	expect_status 2 "$PROFOPT" train -j 0 true
	expect_status 2 "$PROFOPT" train --min-ran=150% true
	expect_status 2 "$PROFOPT" train --each='x {}' true
	expect_status 2 "$PROFOPT" run --label=x -- true
}

test_run_shows_tail_and_status_on_failure() {
	expect_status 3 "$PROFOPT" run --label=stage --log=stage.log -- sh -c 'echo first; echo last words; exit 3'
	expect_contains out 'last words'
	expect_contains out '==> stage: FAILED \(exit 3\)'
	expect_status 0 "$PROFOPT" run --label=ok --log=ok.log --stamp=ok.stamp -- true
	expect_contains ok.stamp '"stage": "ok"'
}

test_live_progress_line_on_a_terminal() {
	require script
	# script(1) gives profopt a pseudo-terminal: one line redrawn in place (\r, clear to end).
	script -qec "$PROFOPT train -j 2 'sleep 1.2' 'sleep 1.2' true" /dev/null > tty.out
	[ "$(grep -c 'training \[' tty.out)" -eq 1 ] || fail "progress printed as separate lines on a terminal"
	[ "$(tr -cd '\r' < tty.out | wc -c)" -ge 3 ] || fail "the progress line was not redrawn"
	grep -q "$(printf '\033\\[K')" tty.out || fail "no clear-to-end-of-line"
	expect_contains tty.out 'training: 3 of 3 tasks ran'
}

# Issue 51: a crash, a timeout or a failed start on the checked program is excused only by the
# same kind of failure in training: a test that merely failed there (this machine's reasons)
# and segfaults on the optimized program is the program's failure.
test_failed_before_excuses_only_the_same_kind() {
	printf 'segv\tfalse\nslow\tfalse\ngone\tfalse\nfails\tsh -c "kill -SEGV \\$\\$"\ncrash\tsh -c "kill -SEGV \\$\\$"\n' > training.txt
	expect_status 0 "$PROFOPT" train --min-ran=0 --results=training.json --tasks=training.txt
	printf 'segv\tsh -c "kill -SEGV \\$\\$"\nslow\tsleep 30\ngone\tno_such_command_51\nfails\tfalse\ncrash\tsh -c "kill -SEGV \\$\\$"\n' > now.txt
	expect_status 1 "$PROFOPT" train --all-pass --timeout=1 --failed-before=training.json --stamp=t.stamp --tasks=now.txt
	expect_contains out 'error: 3 of 5 tasks did not pass \(--all-pass\): 0 failed, 3 crashed, timed out or did not start: segv, slow, gone '
	expect_contains out 'excused, but named: fails, crash$'
	test ! -e t.stamp || fail "a stamp though a task crashed that only failed in training"
	# the same kinds in training excuse them
	expect_status 0 "$PROFOPT" train --min-ran=0 --timeout=1 --results=same.json --tasks=now.txt
	expect_status 0 "$PROFOPT" train --all-pass --timeout=1 --failed-before=same.json --tasks=now.txt
	expect_contains out 'excused, but named: segv, slow, gone, fails, crash$'
}

# Issue 51: a task the shell could not start (126: not executable, 127: not found) did not run:
# no counts, "could not start", and it does not count toward --min-ran.
test_exit_126_127_is_not_started() {
	printf '#!/bin/sh\ntrue\n' > noexec.sh
	# (through the shell: a command of shell syntax, as most task lines are)
	expect_status 1 "$PROFOPT" train --min-ran=100% --results=r.json true 'no_such_command_51 > /dev/null' './noexec.sh 2>&1'
	expect_contains out 'training: 1 of 3 tasks ran'
	expect_contains out '2 of 3 training tasks could not start: no_such_command_51 > /dev/null, \./noexec\.sh 2>&1; they wrote no counts'
	expect_not_contains out 'failed: .*their counts are in the profile'
	expect_eq "$(json_get r.json not-started) $(json_get r.json failed)" "2 0" "results"
}

# A program that fails every task (an interpreter that cannot find its standard library, say)
# trains nothing but start-up: that stops the build, with no stamp; one task passing is enough,
# and --min-ran=0 accepts anything.
test_no_task_passing_is_an_error() {
	printf 'one\tfalse\ntwo\tsh -c "exit 3"\n' > broken.txt
	expect_status 1 "$PROFOPT" train --tasks=broken.txt --results=r.json --stamp=t.stamp
	expect_contains out 'error: none of 2 training tasks passed \(the first: one\): the program does not work'
	[ ! -e t.stamp ] || fail "a stamp claims a training where no task passed"
	expect_contains r.json '"status": "failed"'
	printf 'three\ttrue\n' >> broken.txt
	expect_status 0 "$PROFOPT" train --tasks=broken.txt --stamp=t.stamp
	expect_contains out '2 of 3 training tasks failed'
	rm -f t.stamp
	expect_status 0 "$PROFOPT" train --min-ran=0 'false'
}
