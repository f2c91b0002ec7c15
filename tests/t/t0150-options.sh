# The options stock PGO does not have, on the fixture project: GCC partial training,
# Clang context-sensitive PGO, the BOLT stage, and the reproducibility check.

run_pipeline() {
	make profile-opt > make.out 2>&1 || { cat make.out; fail "make profile-opt"; }
	expect_eq "$(./toy ppas 10)" 90 "the optimized program's answer"
}

llvm_bolt() { command -v llvm-bolt-19 || ls /usr/lib/llvm-*/bin/llvm-bolt 2>/dev/null | head -n 1; }

test_partial_training_gcc() {
	configured_fixture gcc --enable-pgo-partial-training
	expect_contains pgo-config.mk '^PGO_USE_CFLAGS = .*-fprofile-partial-training'
	run_pipeline
	expect_contains pgo/logs/use.log 'fprofile-partial-training'
}

test_partial_training_is_ignored_with_a_warning_for_clang() {
	configured_fixture clang --enable-pgo-partial-training
	expect_contains configure.out 'WARNING: --enable-pgo-partial-training is a GCC option'
	expect_not_contains Makefile 'fprofile-partial-training'
}

test_frontend_instrumentation_clang() {
	configured_fixture clang --with-pgo-instrumentation=frontend
	expect_contains pgo-config.mk '^PGO_GEN_CFLAGS = -fprofile-instr-generate '
	expect_not_contains pgo-config.mk '^PGO_GEN_CFLAGS = .*profile-update=atomic'  # single counters
	expect_contains pgo-config.mk '^PGO_USE_CFLAGS = -fprofile-instr-use=\$\(PGO_USE_PROFDATA\)'
	run_pipeline
	expect_contains pgo/logs/instrument.log 'fprofile-instr-generate'
	# the use stage names the profile by its content (issue 40)
	expect_contains pgo/logs/use.log "fprofile-instr-use=$PWD/pgo/merged-$(sha256sum pgo/merged.profdata | cut -d' ' -f1)[.]profdata"
	cmp pgo/merged.profdata pgo/merged-*.profdata || fail "the content-named profile is not the merged one"
	# the profile is a front-end one
	local tool; tool=$(sed -n 's/^LLVM_PROFDATA = //p' pgo-config.mk)
	"$tool" show pgo/merged.profdata | grep -q 'Instrumentation level: Front-end' ||
		fail "the merged profile is not a front-end profile"
	expect_status 1 ./configure --enable-optimizations CC=clang --with-pgo-instrumentation=frontend --enable-pgo-cs
	expect_contains out 'enable-pgo-cs builds on IR instrumentation'
	expect_status 1 ./configure --enable-optimizations CC=clang --with-pgo-instrumentation=source
	expect_contains out "wants ir or frontend, not 'source'"
}

test_frontend_instrumentation_is_ignored_with_a_warning_for_gcc() {
	configured_fixture gcc --with-pgo-instrumentation=frontend
	expect_contains configure.out 'WARNING: --with-pgo-instrumentation is a Clang option'
	expect_contains pgo-config.mk '^PGO_GEN_CFLAGS = -fprofile-generate'
}

test_context_sensitive_pgo_clang() {
	configured_fixture clang --enable-pgo-cs
	expect_contains pgo-config.mk '^PGO_CS = yes'
	run_pipeline
	expect_stamps cs-instrument cs-train cs-merge
	expect_contains pgo/cs-train.stamp '"stage": "cs-train"'
	expect_contains pgo/logs/cs-instrument.log 'fcs-profile-generate'
	expect_contains make.out 'cs-merge +done'
	local tool; tool=$(sed -n 's/^LLVM_PROFDATA = //p' pgo-config.mk)
	# The final profile holds context-sensitive records, the first profile none.
	"$tool" show --showcs pgo/merged.profdata > cs.txt
	expect_contains cs.txt 'Total functions: [1-9]'
	"$tool" show --showcs pgo/merged-ir.profdata > ir.txt
	expect_contains ir.txt 'Total functions: 0'
	expect_contains pgo/logs/use.log 'fprofile-use='
	# Interrupted after the combined profile was written: the merge starts again from the
	# first profile and gives the same result, not a profile counted twice.
	cp pgo/merged.profdata once.profdata
	rm pgo/cs-merge.stamp pgo/clean.stamp pgo/use.stamp pgo/verify.stamp
	make profile-opt > again.out 2>&1 || { cat again.out; fail "resumed profile-opt"; }
	cmp -s once.profdata pgo/merged.profdata || fail "re-running cs-merge changed the profile"
}

test_context_sensitive_pgo_is_ignored_for_gcc() {
	configured_fixture gcc --enable-pgo-cs
	expect_contains configure.out 'WARNING: --enable-pgo-cs is a Clang option'
	run_pipeline
	test ! -f pgo/cs-instrument.stamp || fail "gcc ran a context-sensitive stage"
}

test_bolt_stage_gcc() {
	[ -n "$(llvm_bolt)" ] || skip "llvm-bolt not installed (Debian: bolt-19)"
	configured_fixture gcc --enable-bolt
	expect_contains configure.out 'checking for llvm-bolt\.\.\. /'
	expect_contains configure.out 'checking for merge-fdata of LLVM [0-9.]+\.\.\. /'
	expect_contains pgo-config.mk '^PGO_BOLT_LDFLAGS = -Wl,--emit-relocs'
	run_pipeline
	test -f pgo/bolt.stamp || fail "no bolt stamp"
	readelf -S toy | grep -q '\.note\.bolt_info' || fail "toy was not rewritten by BOLT"
	readelf -S toy.prebolt | grep -q '\.note\.bolt_info' && fail "the kept original is BOLTed"
	expect_contains make.out 'bolt: .* have non-empty execution profile'
	expect_eq "$(./toy ppmdxs 1000)" "$(./toy.prebolt ppmdxs 1000)" "BOLTed program's answer"
	# Resumed after the rewrite: the stage starts from the kept original.
	rm pgo/bolt.stamp  # as if interrupted: the stage runs again
	make profile-opt > again.out 2>&1 || { cat again.out; fail "resumed bolt stage"; }
	expect_contains pgo/logs/bolt-instrument.log 'toy.prebolt|Profile will be saved'
	# The functions to leave alone are BOLT's regular expressions (gcc's LTO renames local
	# functions: sre_ucs1_match.lto_priv.0), handed to llvm-bolt as they are, never globbed
	# by the shell: a file whose name the list would match as a pattern changes nothing.
	printf '#!/bin/sh\nprintf "%%s\\n" "$@" >> bolt.args\nexec %s "$@"\n' "$(readlink -f "$(llvm_bolt)")" > boltwrap && chmod +x boltwrap
	touch ./-skip-funcs=mai.x,nosuch1
	rm pgo/bolt.stamp
	make profile-opt LLVM_BOLT="$PWD/boltwrap" PGO_BOLT_SKIP='mai.*,nosuch[0-9]*' > skip.out 2>&1 ||
		{ cat skip.out; fail "bolt stage with a skip list"; }
	expect_eq "$(grep -c -x -e '-skip-funcs=mai\.\*,nosuch\[0-9\]\*' bolt.args)" 2 "skip lists llvm-bolt got (instrument, optimize)"
	expect_eq "$(./toy ppmdxs 1000)" "$(./toy.prebolt ppmdxs 1000)" "BOLTed program's answer, main left alone"
	# A rewrite that fails PGO_BOLT_CHECK never replaces the program, and no stamp claims it.
	cp -p toy toy.before && rm pgo/bolt.stamp
	expect_status 2 make profile-opt PGO_BOLT_CHECK='$(PGO_BOLT_NEW) --version && false'
	test ! -f pgo/bolt.stamp || fail "a bolt stamp after the check failed"
	cmp -s toy toy.before || fail "a rewrite that failed its check replaced the program"
	# A check may quote (CPython's names a regrtest --match pattern): it reaches the shell whole.
	rm -f pgo/bolt.stamp
	make profile-opt PGO_BOLT_CHECK="test 'a b' = \"a b\" && \$(PGO_BOLT_NEW) ppas 10 > quoted.out" > quoted.log 2>&1 ||
		{ cat quoted.log; fail "a check with quotes"; }
	expect_eq "$(cat quoted.out)" 90 "the quoted check's run of the rewritten program"
}

# With an imported profile the task lists are written by the first stage that runs the tasks
# (verify's run), not again by BOLT's training; a new profile-use build writes them anew.
test_bolt_with_an_imported_profile_lists_tasks_once() {
	[ -n "$(llvm_bolt)" ] || skip "llvm-bolt not installed (Debian: bolt-19)"
	exported_fixture gcc --enable-bolt
	make profile-opt PGO_PROFILE=../a/pgo/profile-export.tar.gz PGO_TRAIN_LIST='echo listed >> lists.out' > make.out 2>&1 ||
		{ cat make.out; fail "BOLT build with the exported profile"; }
	test -f pgo/bolt.stamp || fail "no bolt stamp"
	expect_eq "$(grep -c listed lists.out)" 1 "task lists written"
	rm pgo/use.stamp pgo/verify.stamp pgo/bolt.stamp  # as if the profile-use build had not finished
	make profile-opt PGO_PROFILE=../a/pgo/profile-export.tar.gz PGO_TRAIN_LIST='echo listed >> lists.out' > again.out 2>&1 ||
		{ cat again.out; fail "profile-use build again"; }
	expect_eq "$(grep -c listed lists.out)" 2 "task lists written after a new profile-use build"
}

test_bolt_refuses_a_mismatched_merge_fdata() {
	[ -n "$(llvm_bolt)" ] || skip "llvm-bolt not installed (Debian: bolt-19)"
	require gcc autoconf
	setup_fixture
	fake_bin merge-fdata 'echo "  LLVM version 17.0.6"'
	expect_status 1 ./configure --enable-optimizations --enable-bolt CC=gcc PROFOPT="$PROFOPT" \
		MERGE_FDATA="$PWD/fakebin/merge-fdata"
	expect_contains out 'no merge-fdata of the version of .*llvm-bolt \(19'
	expect_contains out 'version 17\.0\.6'
	expect_status 1 ./configure --enable-optimizations --enable-bolt CC=gcc PROFOPT="$PROFOPT" \
		LLVM_BOLT=/nonexistent/llvm-bolt
	expect_contains out 'llvm-bolt not found at /nonexistent/llvm-bolt'
}

test_bolt_by_default_where_the_tools_are() {
	# A configure script may make the stage its default (ax_pgo_bolt_default=auto, as
	# profopt's own for CPython): missing tools then mean no stage and a notice, not an error.
	[ -n "$(llvm_bolt)" ] || skip "llvm-bolt not installed (Debian: bolt-19)"
	require gcc autoconf
	setup_fixture
	ax_pgo_bolt_default=auto ./configure --enable-optimizations CC=gcc PROFOPT="$PROFOPT" > auto.out 2>&1 ||
		{ cat auto.out; fail "configure with the BOLT stage by default"; }
	expect_contains pgo-config.mk '^PGO_BOLT = yes'
	expect_status 0 env ax_pgo_bolt_default=auto ./configure --enable-optimizations CC=gcc PROFOPT="$PROFOPT" \
		LLVM_BOLT=/nonexistent/llvm-bolt
	expect_contains out 'no BOLT stage: llvm-bolt not found at /nonexistent/llvm-bolt'
	expect_contains pgo-config.mk '^PGO_BOLT = no'
	expect_status 0 env ax_pgo_bolt_default=auto ./configure --enable-optimizations --disable-bolt CC=gcc PROFOPT="$PROFOPT"
	expect_contains pgo-config.mk '^PGO_BOLT = no'
	# asked for by name, a missing tool stays an error
	expect_status 1 env ax_pgo_bolt_default=auto ./configure --enable-optimizations --enable-bolt CC=gcc \
		PROFOPT="$PROFOPT" LLVM_BOLT=/nonexistent/llvm-bolt
	expect_contains out 'error: --enable-bolt: llvm-bolt not found at /nonexistent/llvm-bolt'
}

test_two_trainings_give_identical_profiles() {
	for cc in gcc clang; do
		mkdir "$cc" && cd "$cc"
		configured_fixture "$cc"
		make pgo-repro-check > repro.out 2>&1 || { cat repro.out; fail "$cc: pgo-repro-check"; }
		expect_contains repro.out 'identical:  yes'
		expect_contains repro.out 'similarity: 100\.000%'
		# The pipeline goes on from the second profile.
		run_pipeline
		cd ..
	done
}

test_repro_check_fails_when_trainings_differ() {
	configured_fixture clang
	# A training task whose work depends on the time of day: the profiles differ.  (The
	# leading 1 keeps nanoseconds such as 08... from being read as an octal number.)
	printf 'clock\tsh -c "./toy ppas $(( 1$(date +%%N) %% 5000 + 100 ))"\n' > train.txt
	expect_status 2 make pgo-repro-check  # make reports the failed recipe with 2
	expect_contains out 'identical:  no'
}
