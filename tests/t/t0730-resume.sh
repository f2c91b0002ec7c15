# Resume after any kill: a profile-use build killed while writing an object is cleaned before
# the next one (no "file too short" forever after); sources edited after a finished build are
# rebuilt with the kept profile (with PGO_SOURCE_ROOT or without), their staleness reported
# under PGO_MAX_CHANGED; impossible training timeouts are refused.

check_kill_during_use() {
	configured_fixture "$1"
	make "$PWD/pgo/clean.stamp" > first.out 2>&1 || { cat first.out; fail "make up to the clean stage"; }
	sha256sum "$2" > good.sum
	# A compiler that, asked for main.o with the profile, writes half of it and hangs there,
	# as a compiler does when the build is killed under it.
	cat > halfcc <<-EOF
	#!/bin/sh
	case "\$*" in *-fprofile-use*|*-fprofile-instr-use*) ;; *) exec $1 "\$@" ;; esac
	case "\$*" in *main.c*) ;; *) exec $1 "\$@" ;; esac
	while [ \$# -gt 1 ]; do [ "\$1" = -o ] && out=\$2; shift; done
	head -c 100 "$(command -v "$1")" > "\$out"
	exec sleep 60.4242
	EOF
	chmod +x halfcc
	setsid make profile-opt CC="$PWD/halfcc" > killed.out 2>&1 &
	local pid=$!
	for i in $(seq 1 100); do pgrep -f '^sleep 60.4242' > /dev/null && break; sleep 0.2; done
	test -s main.o || { cat killed.out; fail "no half-written main.o"; }
	# Everything of that run dies at once (its whole session), the build's make included.
	pkill -9 -s "$pid"
	wait "$pid" || true
	pkill -f '^sleep 60.4242' || true
	test ! -f pgo/use.stamp || fail "use stamp after the kill"
	expect_status 0 make profile-opt
	expect_contains out '==> the last profile-use build did not finish: cleaning its objects first'
	expect_contains out 'verify: interp.o: used profile data'
	expect_eq "$(./toy ppas 10)" 90 "the optimized program's answer"
	sha256sum -c good.sum > /dev/null || fail "the profile was changed"
	# And the next run has nothing to do.
	expect_status 0 make profile-opt
	expect_eq "$(stages_run out)" "" "stages re-run with nothing changed"
}

test_kill_during_the_use_build_gcc() {
	check_kill_during_use gcc pgo/profiles.tar
}

test_kill_during_the_use_build_clang() {
	check_kill_during_use clang pgo/merged.profdata
}

check_edit_after_finish() {
	configured_fixture "$1"
	expect_status 0 make profile-opt PGO_SOURCE_ROOT="$PWD"
	sha256sum "$2" > good.sum
	printf '\nint added_after_training(int x) { return x * 3; }\n' >> interp.c
	# Over the limit (none by default): refused, and no stamp says the build is done.
	expect_status 2 make profile-opt PGO_SOURCE_ROOT="$PWD"
	expect_contains out '==> sources changed since the profile-use build'
	expect_contains out 'the profile is stale: 1 source changed since training, more than --max-changed=0'
	test ! -f pgo/use.stamp && test ! -f pgo/verify.stamp || fail "a stamp claims the stale build is done"
	# Under the limit: rebuilt with the kept profile, the staleness reported.
	expect_status 0 make profile-opt PGO_SOURCE_ROOT="$PWD" PGO_MAX_CHANGED=1
	expect_contains out '1 source stale since training \(tolerated by --max-changed=1\)'
	expect_contains out '==> rebuild with profile'
	expect_contains out 'verify: interp.o: used profile data'
	expect_not_contains out '==> training'
	nm interp.o | grep -q added_after_training || fail "interp.o was not rebuilt from the edited source"
	sha256sum -c good.sum > /dev/null || fail "the kept profile was changed"
	expect_status 0 make profile-opt PGO_SOURCE_ROOT="$PWD" PGO_MAX_CHANGED=1
	expect_eq "$(stages_run out)" "" "stages re-run with nothing changed"
}

test_edit_after_finish_gcc() {
	check_edit_after_finish gcc pgo/profiles.tar
}

test_edit_after_finish_clang() {
	check_edit_after_finish clang pgo/merged.profdata
}

# Without PGO_SOURCE_ROOT (the fragment's default) the guarantee holds the same: the use
# build's own compiles say which files to watch.  A source, then a header, then another source
# edited one after the other: each rebuilds with the kept profile, none trains.
check_edit_without_source_root() {
	configured_fixture "$1"
	expect_status 0 make profile-opt
	sha256sum "$2" > good.sum
	expect_contains pgo/use-sources.fp '^files listed$'
	expect_contains pgo/use-sources.fp ' interp\.c$'
	expect_contains pgo/use-sources.fp ' interp\.h$'
	printf '\nint edited_once(int x) { return x * 3; }\n' >> interp.c
	expect_status 0 make profile-opt
	expect_contains out '==> sources changed since the profile-use build'
	expect_contains out '==> rebuild with profile'
	expect_not_contains out '==> training'
	expect_contains out 'verify: interp.o: used profile data'
	nm interp.o | grep -q edited_once || fail "interp.o was not rebuilt from the edited source"
	# A header: every object that includes it is rebuilt (the project's own make decides which).
	printf '\n#define EDITED_HEADER 1\n' >> interp.h
	expect_status 0 make profile-opt
	expect_contains out '==> rebuild with profile'
	# The partial rebuild above compiled only interp.c: main.c is still watched.
	printf '\nint edited_main(void) { return 7; }\n' >> main.c
	expect_status 0 make profile-opt
	expect_contains out '==> sources changed since the profile-use build'
	nm main.o | grep -q edited_main || fail "main.o was not rebuilt from the edited source"
	sha256sum -c good.sum > /dev/null || fail "the kept profile was changed"
	expect_status 0 make profile-opt
	expect_eq "$(stages_run out)" "" "stages re-run with nothing changed"
}

test_edit_without_source_root_gcc() {
	check_edit_without_source_root gcc pgo/profiles.tar
}

test_edit_without_source_root_clang() {
	check_edit_without_source_root clang pgo/merged.profdata
}

# A log that shows no compile command (silent rules): the record falls back to the build
# directory's sources, and says so.
test_silent_build_log_falls_back_to_the_tree() {
	mkdir -p tree/src && printf 'int f(void) { return 1; }\n' > tree/src/f.c
	printf '  CC       f.o\n' > silent.log
	expect_status 0 "$PROFOPT" check --write-fingerprint=fp --build-log=silent.log --build-dir=tree
	expect_contains out 'shows no compile command whose source exists \(silent rules\? make V=1 shows them\)'
	expect_contains fp ' src/f\.c$'
	expect_status 0 "$PROFOPT" check --against=fp
	printf 'int g;\n' >> tree/src/f.c
	expect_status 1 "$PROFOPT" check --against=fp
	expect_contains out 'changed +src/f\.c'
	# Nothing to watch at all: an empty record, said, that compares clean.
	mkdir empty
	expect_status 0 "$PROFOPT" check --write-fingerprint=fp2 --build-log=silent.log --build-dir=empty
	expect_contains out 'edits after this build will not be noticed'
	expect_status 0 "$PROFOPT" check --against=fp2
}

test_impossible_timeouts_are_refused() {
	local t
	for t in 1e400 inf nan -5 0 1e9 604801 5x ''; do
		expect_status 2 "$PROFOPT" train --timeout="$t" true
		expect_contains out "--timeout wants seconds > 0 and at most 604800, not '$t'"
	done
	expect_status 0 "$PROFOPT" train --timeout=604800 true
	expect_status 2 "$PROFOPT" train --heartbeat=inf true
}

# The project's own `make clean` (the fixture's removes the program, objects and .gcda files)
# leaves no stamp that would let the next profile-opt say "ok" over a missing build: the kept
# profile is restored and the program rebuilt with it, without training again.
check_make_clean_then_profile_opt() {
	configured_fixture "$1"
	make profile-opt > first.out 2>&1 || { cat first.out; fail "first profile-opt"; }
	sha256sum "$2" > profile.sum
	expect_status 0 make clean
	test ! -e toy || fail "make clean left the program"
	for s in clean use verify; do test ! -f "pgo/$s.stamp" || fail "make clean left pgo/$s.stamp"; done
	expect_status 0 make profile-opt
	expect_eq "$(stages_run out)" "==> clean keeping profiles;==> rebuild with profile;==> verify;" "stages after make clean"
	expect_contains out 'verify: interp.o: used profile data'
	test -x toy || fail "no program after profile-opt"
	expect_eq "$(./toy ppas 10)" 90 "the rebuilt program's answer"
	sha256sum -c profile.sum > /dev/null || fail "the profile was changed"
}

test_make_clean_then_profile_opt_gcc() { check_make_clean_then_profile_opt gcc pgo/profiles.tar; }
test_make_clean_then_profile_opt_clang() { check_make_clean_then_profile_opt clang pgo/merged.profdata; }

# Issue 51: a source edited while training runs (no PGO_SOURCE_ROOT, the fragment's defaults)
# stops the use stage: the profile was trained on the old code.  The training task itself edits
# interp.c, so the edit falls between the fingerprint and the rebuild.
check_edit_during_training() {
	configured_fixture "$1"
	printf 'edits\tsh -c "printf \\"\\\\nint edited_in_training(void) { return 1; }\\\\n\\" >> interp.c; ./toy ppas 1000"\n' > edit.txt
	expect_status 2 make profile-opt TRAIN_TASKS=edit.txt
	grep -q edited_in_training interp.c || fail "the task did not edit interp.c: no proof"
	expect_contains out 'the profile is stale: 1 source changed since training'
	expect_not_contains out '==> rebuild with profile'
	expect_not_contains out 'total +ok'
	test ! -f pgo/use.stamp || fail "a use stamp over a stale profile"
	# retraining on the edited source goes through
	expect_status 0 make profile-removal
	expect_status 0 make profile-opt
	expect_contains out 'verify: interp.o: used profile data'
}

test_edit_during_training_stops_the_use_stage_gcc() { check_edit_during_training gcc; }
test_edit_during_training_stops_the_use_stage_clang() { check_edit_during_training clang; }
