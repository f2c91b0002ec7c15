# Honest words: the summary says what training lost, a damaged or foreign stamp is named and
# never passed on as a record, a failed stage is never "ok", and a fatal stop is an error.

stamps() { echo pgo/configure.stamp pgo/instrument.stamp pgo/train.stamp pgo/merge.stamp pgo/clean.stamp pgo/use.stamp pgo/verify.stamp; }

test_summary_shows_failed_training_tasks() {
	configured_fixture gcc
	make profile-opt > make.out 2>&1 || { cat make.out; fail "make profile-opt"; }
	# the fixture's task "fails" exits 1 (its counts are in the profile)
	expect_contains make.out '^train +done .* 4 tasks: 1 failed \(ran to the end\), 0 lost'
	expect_contains make.out '^total +ok .*\(training: 1 of 4 tasks failed, 0 lost\)'
	"$PROFOPT" summary --json $(stamps) > s.json
	expect_eq "$(json_get s.json training.failed)" 1
	expect_eq "$(json_get s.json training.tasks)" 4
	expect_eq "$(json_get s.json ok)" true
}

test_summary_shows_lost_training_tasks() {
	configured_fixture gcc
	printf 'a\t./toy ppas 1000\nb\t./toy ppmdxs 1000\nc\t./toy pdpapmsq 1000\ncrash\t./toy crash\n' > crash.txt
	make profile-opt TRAIN_TASKS=crash.txt PGO_MIN_RAN=75% > make.out 2>&1 || { cat make.out; fail "make"; }
	expect_contains make.out '^train +done .* 4 tasks: 0 failed \(ran to the end\), 1 lost \(crashed, timed out or not started\)'
	expect_contains make.out '^total +ok .*\(training: 0 of 4 tasks failed, 1 lost\)'
}

test_summary_of_several_workloads_counts_every_run() {
	configured_fixture gcc
	printf 'x1\t./toy ppas 100\nx2\tsh -c "exit 3"\n' > extra.txt
	make profile-opt PGO_WORKLOADS="main extra:1" PGO_TRAIN_ARGS_extra=--tasks=extra.txt PGO_MIN_RAN=50% > make.out 2>&1 ||
		{ cat make.out; fail "make"; }
	expect_contains make.out '^train +done .* 6 tasks: 2 failed'
}

test_summary_says_why_training_is_missing() {
	# A fatal training error leaves no stamp; the status says why, from the training's results.
	configured_fixture gcc
	printf 'a\t./toy ppas 1000\ncrash\t./toy crash\n' > crash.txt
	expect_status 2 make profile-opt TRAIN_TASKS=crash.txt
	expect_status 0 make pgo-status  # an unfinished pipeline is an answer, not an error
	expect_contains out '^instrument +done'
	expect_contains out '^train +MISSING +- +failed: 1 of 2 tasks passed, 0 failed, 1 crashed, 0 timed out \(.*/pgo/train-results\.json\)$'
	expect_contains out '^total +INCOMPLETE'
	expect_status 1 "$PROFOPT" summary --json $(stamps)
	expect_contains out '"why": "failed: 1 of 2 tasks passed, 0 failed, 1 crashed'
}

test_summary_damaged_stamp() {
	configured_fixture gcc
	make profile-opt > make.out 2>&1 || { cat make.out; fail "make profile-opt"; }
	printf '{"stage": "train", "status": "ok", "sec' > pgo/train.stamp
	expect_status 3 "$PROFOPT" summary $(stamps)
	expect_contains out 'error: pgo/train\.stamp is not JSON .*a damaged stamp'
	expect_contains out '^train +DAMAGED'
	expect_contains out '^total +DAMAGED'
	expect_not_contains out '^total +ok'
	# the JSON report stays valid JSON, with ok false and the damage named
	set +e; "$PROFOPT" summary --json $(stamps) > s.json 2> err; local rc=$?; set -e
	expect_eq "$rc" 3 "summary --json exit status"
	expect_eq "$(json_get s.json ok)" false
	expect_eq "$(json_get s.json stages.2.record.status)" damaged
	expect_match "$(json_get s.json stages.2.record.error)" 'train\.stamp is not JSON'
	# make's targets fail on it too
	if make pgo-status > st.out 2>&1; then cat st.out; fail "pgo-status passed with a damaged stamp"; fi
	if make profile-opt > again.out 2>&1; then cat again.out; fail "profile-opt passed with a damaged stamp"; fi
	expect_contains again.out 'train\.stamp is not JSON'
}

test_summary_foreign_nul_and_failed_stamps() {
	printf '{"stage": "verify", "status": "ok", "seconds": 1.5}\n' > good.stamp
	printf '{"hello": "world"}\n' > foreign.stamp
	printf '{"stage": "x", "status": "ok"}\0garbage' > nul.stamp
	printf '[1, 2]\n' > array.stamp
	printf '{"stage": "use", "status": "failed", "seconds": 3}\n' > failed.stamp
	expect_status 0 "$PROFOPT" summary good.stamp
	expect_contains out '^total +ok'
	expect_status 3 "$PROFOPT" summary good.stamp foreign.stamp
	expect_contains out 'foreign\.stamp is not a profopt stage record .*a foreign file'
	expect_status 3 "$PROFOPT" summary nul.stamp
	expect_contains out 'nul\.stamp is not JSON'
	expect_status 3 "$PROFOPT" summary array.stamp
	expect_status 1 "$PROFOPT" summary good.stamp failed.stamp
	expect_contains out '^failed +FAILED'
	expect_contains out '^total +FAILED'
	"$PROFOPT" summary --json good.stamp failed.stamp missing.stamp > s.json || true
	expect_eq "$(json_get s.json ok)" false
	expect_eq "$(json_get s.json stages.2.record.status)" missing
	# A missing stage is an unfinished pipeline: pgo-status answers, it does not fail.
	expect_status 1 "$PROFOPT" summary good.stamp missing.stamp
	expect_contains out '^total +INCOMPLETE'
}

# A training of several workloads: the stage took as long as its runs together, not 0 s.
# Several workloads train in one profopt train, whose stamp counts every task of them.
test_summary_of_a_training_of_several_workloads() {
	printf 'a\ttrue\nb\tfalse\n' > r.txt
	"$PROFOPT" train --min-ran=50% --log-dir=logs --stamp=train.stamp --workload=profopt --tasks=r.txt \
		--workload=regrtest:2 true 2> /dev/null
	expect_contains train.stamp '"workloads": "profopt:1 regrtest:2"'
	printf '{"stage": "use", "status": "ok", "seconds": 100}\n' > use.stamp
	expect_status 0 "$PROFOPT" summary train.stamp use.stamp
	expect_contains out '^train +done +[0-9.]+ s +3 tasks: 1 failed'
	"$PROFOPT" summary --json train.stamp use.stamp > s.json
	expect_eq "$(json_get s.json training.tasks)" 3
}

test_fatal_stops_are_errors_not_warnings() {
	printf 'x.c:1:1: warning: profile data may be corrupted\n' > build.log
	expect_status 1 "$PROFOPT" check --build-log=build.log --max-changed=100
	expect_contains out 'check: error: the compiler found the profile corrupted \(1 message in build\.log\)'
	expect_not_contains out 'check: warning: the compiler found'
}

test_damaged_profile_named_by_the_users_path() {
	require gcc
	mkdir -p build
	printf 'int f(int x) { return x + 1; }\n' > build/f.c
	(cd build && gcc -O1 -g -fprofile-use -Wno-missing-profile -c f.c)
	printf 'adcg\1\2' > build/f.gcda
	expect_status 1 "$PROFOPT" verify --family=gcc --build-dir=build
	expect_contains out 'error: damaged profile: build/f\.gcda: offset 0'
	expect_contains out '1 of 1 \.gcda files under build are damaged'
}

# Issue 51: a duration past the range of an int (a stamp of 95 years, of more) prints right,
# not as a wrapped or negative number (and no float-cast-overflow under UBSan, make check-asan).
test_summary_durations_past_integer_range() {
	printf '{"stage": "train", "status": "ok", "seconds": 3000000000.0}\n' > train.stamp
	printf '{"stage": "verify", "status": "ok", "seconds": 1e300}\n' > verify.stamp
	expect_status 0 "$PROFOPT" summary train.stamp
	expect_contains out '^train +done +833333 h 20 min$'
	expect_contains out '^total +ok +833333 h 20 min$'
	expect_status 0 "$PROFOPT" summary verify.stamp
	expect_contains out '^verify +done +2\.78e\+296 h$'
}
