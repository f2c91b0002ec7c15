# make -jN profile-opt in an AX_PGO project: the recipes that reach the project's make through
# a variable (the lock's, PGO_BUILD_GEN, PGO_BUILD_USE) pass make's jobserver on, so both
# compile stages compile N at a time (they ran at -j1, "jobserver unavailable", before).

# A compiler that says when two of the fixture's compiles overlap: each compile of interp.c or
# main.c marks itself running for a second, and notes the stage (instrument or use) when
# another is running at the same time.
overlap_cc() {
	cat > slowcc <<-'EOT'
	#!/bin/sh
	dir=$(dirname "$0")/compiles
	case " $* " in
	*" -c "*interp.c*|*" -c "*main.c*)
		mkdir -p "$dir" && : > "$dir/$$.running"
		sleep 1
		stage=none
		case " $* " in *profile-generate*|*profile-instr-generate*) stage=instrument ;; *profile-use*|*profile-instr-use*) stage=use ;; esac
		[ "$(ls "$dir" | grep -c '\.running$')" -ge 2 ] && echo "$stage" >> "$dir/overlaps"
		gcc "$@"; rc=$?
		rm -f "$dir/$$.running"
		exit $rc ;;
	esac
	exec gcc "$@"
	EOT
	chmod +x slowcc
}

# The fixture configured with that compiler.
slow_fixture() {
	require gcc autoconf
	setup_fixture
	overlap_cc
	./configure --enable-optimizations --disable-bolt CC="$PWD/slowcc" PROFOPT="$PROFOPT" > configure.out 2>&1 ||
		{ cat configure.out; fail "configure"; }
}

test_both_compile_stages_build_in_parallel() {
	slow_fixture
	make -j2 profile-opt > make.out 2>&1 || { cat make.out; fail "make -j2 profile-opt"; }
	expect_not_contains make.out 'jobserver unavailable'
	expect_contains compiles/overlaps '^instrument$'
	expect_contains compiles/overlaps '^use$'
	expect_eq "$(./toy ppas 10)" 90 "the optimized program's answer"
}

test_without_j_the_compiles_run_one_at_a_time() {
	# The control: the same compiler at -j1 shows no overlap, so the test above sees make's
	# parallelism, not the wrapper's.
	slow_fixture
	make profile-opt > make.out 2>&1 || { cat make.out; fail "make profile-opt"; }
	test ! -f compiles/overlaps || { cat compiles/overlaps; fail "compiles overlapped at -j1"; }
}
