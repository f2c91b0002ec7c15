# t0910-runner.sh - tests/run itself: test files run JOBS at a time, each test in its own
# directory, reports printed per file in the files' order, and the last line counts all.

# A copy of the runner with test files of its own: t0001 (slow, passes), t0002 (fails and
# skips), t0003 (passes); each test leaves its directory's name behind.
fake_suite() {
	mkdir -p suite/tests/t
	cp "$SRCDIR/tests/run" "$SRCDIR/tests/lib.sh" suite/tests/
	cat > suite/tests/t/t0001-slow.sh <<'T'
test_slow_one() { pwd > "$TRASH/where.1"; sleep 2; }
test_slow_two() { sleep 1; }
T
	cat > suite/tests/t/t0002-mixed.sh <<'T'
test_fails() { pwd > "$TRASH/where.2"; sleep 2; false; }
test_skips() { skip "no frobnicator"; }
T
	cat > suite/tests/t/t0003-quick.sh <<'T'
test_quick() { test ! -e "$TRASH/where.1" || test "$(cat "$TRASH/where.1")" != "$PWD"; }
T
}

runner() {
	SRCDIR=$PWD/suite BUILDDIR=$PWD/build PROFOPT=/bin/true UNIT_TESTS=/nonexistent "$@" suite/tests/run t0
}

test_files_run_in_parallel_reported_in_order() {
	fake_suite
	mkdir build
	local start=$(date +%s)
	set +e; JOBS=3 runner > out 2>&1; local rc=$?; set -e
	local secs=$(( $(date +%s) - start ))
	expect_eq "$rc" 1 "exit status with a failure"
	# three files at once: about 3 s (t0001's two tests), not the 5 s they take one by one
	[ "$secs" -lt 5 ] || fail "JOBS=3 took ${secs}s"
	expect_eq "$(grep '^== ' out | tr '\n' ' ')" "== t0001-slow == t0002-mixed == t0003-quick " "file order"
	expect_contains out '^   FAIL  test_fails'
	expect_contains out '^   skip  test_skips: no frobnicator$'
	expect_eq "$(tail -n 1 out)" "3 passed, 1 failed, 1 skipped"
	expect_contains out '^  t0002-mixed: test_fails$'
	# each test in a directory of its own
	expect_eq "$(cat build/tests/trash/where.1)" "$PWD/build/tests/trash/t0001-slow/test_slow_one"
	expect_eq "$(cat build/tests/trash/where.2)" "$PWD/build/tests/trash/t0002-mixed/test_fails"
}

test_serial_run_gives_the_same_report() {
	fake_suite
	mkdir build
	JOBS=3 runner > parallel.out 2>&1 || true
	JOBS=1 runner > serial.out 2>&1 || true
	# the same lines but for the seconds each test took
	sed -E 's/[0-9]+s([;)])/Ns\1/' parallel.out > a
	sed -E 's/[0-9]+s([;)])/Ns\1/' serial.out > b
	expect_contains a 'FAIL  test_fails \(exit 1, Ns; log: '
	diff a b || fail "JOBS=1 and JOBS=3 report differently"
	expect_status 2 env JOBS=zero SRCDIR="$PWD/suite" BUILDDIR="$PWD/build" suite/tests/run t0
}
