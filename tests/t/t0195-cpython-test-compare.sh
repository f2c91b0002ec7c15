# t0195-cpython-test-compare.sh - Tools/scripts/cpython-test-compare: CPython's test suite on
# an optimized and a plain build, failing (exit 1, naming them) on the tests that fail only on
# the optimized one.  The "interpreters" are fakes: shell scripts named python that answer
# `-m test ... --junit-xml FILE` with a junit XML and a log the way regrtest 3.14 writes them.

compare_script() { echo "$SRCDIR/Tools/scripts/cpython-test-compare"; }

# fake_python NAME: NAME/python, a fake build's interpreter; NAME/outcomes ("FILE CASE STATUS"
# lines, in order; CASE - for a whole-file STATUS) says what its test suite does:
#   pass fail error skip   a test case's result
#   flaky                  fails on the first run of this interpreter only (a counter file)
#   subfail                a failed subtest: regrtest's XML holds a nameless <testcase/>
#   hog                    maps 1 GB: fails (ENOMEM) under a smaller address-space limit
#   crash timeout envchanged  the whole file: a worker killed by SIGSEGV, a timeout, env changed
# Every `-m test` call is recorded in ./calls (start/end, cwd, LD_LIBRARY_PATH, ulimit -v,
# arguments); NAME/nostart makes `-c` fail, NAME/noxml makes regrtest fail before any test.
fake_python() {
	mkdir -p "$1"
	: > "$1/outcomes"
	cat > "$1/python" <<'FAKE'
#!/bin/sh
here=$(cd "$(dirname "$0")" && pwd)
name=$(basename "$here")
calls=$here/../calls
if [ "$1" = -c ]; then
	[ -e "$here/nostart" ] && { echo "Fatal Python error: init_import_site: Failed to import the site module"; exit 1; }
	echo 3.14.7
	exit 0
fi
[ "$1 $2" = "-m test" ] || { echo "fake python: unexpected arguments: $*"; exit 2; }
shift 2
echo "start $name cwd=$PWD ld=${LD_LIBRARY_PATH:-} vlimit=$(ulimit -v) args=$*" >> "$calls"
xml='' verbose=no selected=''
while [ $# -gt 0 ]; do
	case $1 in
	--junit-xml) xml=$2; shift ;;
	-j | --timeout | -u) shift ;;
	-v) verbose=yes ;;
	-*) ;;
	*) selected="$selected $1 " ;;
	esac
	shift
done
if [ -e "$here/noxml" ]; then
	echo "ImportError: cannot import name 'runtest' from 'test.libregrtest'"
	echo "end $name" >> "$calls"
	exit 1
fi
files=$(awk '{print $1}' "$here/outcomes" | uniq)
[ -z "$selected" ] || files=$(for f in $files; do case $selected in *" $f "*) echo "$f" ;; esac; done)
total=$(echo "$files" | wc -w)
: > "$here/suites.xml"
i=0 bad=0 ok='' failed='' envchanged='' cases=0 nfail=0 nerr=0 nskip=0
echo "Using random seed: 1234"
echo "0:00:00 load avg: 0.50 Run $total tests in parallel using 2 worker processes (timeout: 20 min, worker timeout: 25 min)"
for f in $files; do
	i=$((i + 1))
	whole=$(awk -v f="$f" '$1 == f && $2 == "-" {print $3}' "$here/outcomes")
	out='' suite='' t=0 fl=0 er=0 blocks=''
	for line in $(awk -v f="$f" '$1 == f && $2 != "-" {print $2 ":" $3}' "$here/outcomes"); do
		id=${line%:*} st=${line#*:} short=${line%:*}
		short=${short##*.}
		if [ "$st" = flaky ]; then
			if [ -e "$here/count.$id" ]; then st=pass; else : > "$here/count.$id"; st=fail; fi
		fi
		if [ "$st" = hog ]; then
			if err=$(python3 -c 'import mmap; mmap.mmap(-1, 1 << 30)' 2>&1); then st=pass; else st=error; fi
		fi
		t=$((t + 1))
		case $st in
		pass) suite="$suite<testcase name=\"$id\" status=\"run\" result=\"completed\" time=\"0.000100\" />"
		      out="$out$short ($id) ... ok
" ;;
		skip) suite="$suite<testcase name=\"$id\" status=\"run\" result=\"completed\" time=\"0.000010\"><skipped>fake skip</skipped></testcase>"
		      nskip=$((nskip + 1)); out="$out$short ($id) ... skipped 'fake skip'
" ;;
		fail) suite="$suite<testcase name=\"$id\" status=\"run\" result=\"completed\" time=\"0.000300\"><system-out /><system-err /><failure type=\"AssertionError\" message=\"AssertionError: 1 != 2&#10;\">Traceback (most recent call last):&#10;AssertionError: 1 != 2&#10;</failure></testcase>"
		      fl=$((fl + 1)); out="$out$short ($id) ... FAIL
"; blocks="$blocks
======================================================================
FAIL: $short ($id)
----------------------------------------------------------------------
Traceback (most recent call last):
AssertionError: 1 != 2
" ;;
		subfail) suite="$suite<testcase />"
		      fl=$((fl + 1)); out="$out$short ($id) ...
  $short ($id) (i=1) ... FAIL
"; blocks="$blocks
======================================================================
FAIL: $short ($id) (i=1)
----------------------------------------------------------------------
AssertionError: 1 == 1
" ;;
		error) msg=${err:-RuntimeError: boom}
		      msg=$(printf '%s' "$msg" | tail -n 1)
		      suite="$suite<testcase name=\"$id\" status=\"run\" result=\"completed\" time=\"0.000300\"><system-out /><system-err /><error type=\"RuntimeError\" message=\"$msg\">Traceback (most recent call last):&#10;$msg&#10;</error></testcase>"
		      er=$((er + 1)); out="$out$short ($id) ... ERROR
"; blocks="$blocks
======================================================================
ERROR: $short ($id)
----------------------------------------------------------------------
Traceback (most recent call last):
$msg
" ;;
		esac
		err=''
	done
	case $whole in
	crash | timeout) ;;
	*) cases=$((cases + t)) nfail=$((nfail + fl)) nerr=$((nerr + er))
	   echo "<testsuite start=\"2026-01-01 00:00:00.000000\" tests=\"$t\" errors=\"$er\" failures=\"$fl\">$suite</testsuite>" >> "$here/suites.xml" ;;
	esac
	state=passed
	if [ $((fl + er)) -gt 0 ]; then
		state="failed ("
		[ "$er" -gt 0 ] && state="$state$er error$([ "$er" -gt 1 ] && echo s)"
		[ "$er" -gt 0 ] && [ "$fl" -gt 0 ] && state="$state, "
		[ "$fl" -gt 0 ] && state="$state$fl failure$([ "$fl" -gt 1 ] && echo s)"
		state="$state)"
	fi
	case $whole in
	crash) state="worker non-zero exit code (Exit code -11)" ;;
	timeout) state="timed out (20 min)" ;;
	envchanged) state="failed (env changed)" ;;
	esac
	case $state in
	passed) ok="$ok $f" ;;
	"failed (env changed)") envchanged="$envchanged $f"; bad=$((bad + 1)) ;;
	*) failed="$failed $f"; bad=$((bad + 1)) ;;
	esac
	count="$i/$total"
	[ "$bad" -gt 0 ] && count="$count/$bad"
	echo "0:00:0$((i % 10)) load avg: 0.50 [$count] $f $state"
	case $state in
	"failed ("*) [ "$verbose" = yes ] || echo "test $f failed -- multiple errors occurred; run in verbose mode for details" ;;
	"worker non-zero"*) echo "Fatal Python error: Segmentation fault" ;;
	esac
	if [ "$verbose" = yes ] && [ -z "$whole" ]; then
		printf '%s%s\n----------------------------------------------------------------------\nRan %s tests in 0.001s\n\n' "$out" "$blocks" "$t"
	fi
done
if [ -s "$here/suites.xml" ]; then
	{ printf '<testsuites tests="%s" errors="%s" failures="%s">' "$cases" "$nerr" "$nfail"
	  tr -d '\n' < "$here/suites.xml"; printf '</testsuites>'; } > "$xml"
fi
echo
[ -n "$failed" ] && result=FAILURE || result=SUCCESS
echo "== Tests result: $result =="
# count WORDS: "1 test" or "N tests", as regrtest counts them
count() { set -- $1; [ $# = 1 ] && echo "1 test" || echo "$# tests"; }
list() { echo; echo "$(count "$2") $1"; echo "   $2"; }
[ -z "$envchanged" ] || list "altered the execution environment (env changed):" "$envchanged"
[ -z "$failed" ] || list "failed:" "$failed"
[ -z "$ok" ] || { echo; echo "$(count "$ok") OK."; }
echo
echo "Total duration: 1.2 sec"
echo "Total tests: run=$cases failures=$nfail skipped=$nskip"
echo "Total test files: run=$total/$total failed=$(echo $failed | wc -w)"
echo "Result: $result"
echo "end $name" >> "$calls"
[ -z "$failed" ] || exit 2
FAKE
	chmod +x "$1/python"
}

# outcomes NAME LINES...: the test suite of fake NAME.
outcomes() { local n=$1; shift; printf '%s\n' "$@" > "$n/outcomes"; }

# compare [ARGS...]: the script on opt/python and plain/python, into ./work; exit status in $rc,
# stdout in ./stdout, stderr in ./stderr.
compare() {
	set +e
	"$(compare_script)" --optimized=opt/python --plain=plain/python --work=work --jobs=2 "$@" > stdout 2> stderr
	rc=$?
	set -e
}

# The suite both fakes share, but for what a test adds: test_a fails on both builds.
common_suite() {
	fake_python opt
	fake_python plain
	outcomes plain \
		"test_a test.test_a.ATest.test_one fail" "test_a test.test_a.ATest.test_two pass" \
		"test_b test.test_b.BTest.test_one pass" "test_b test.test_b.BTest.test_two pass" \
		"test_c test.test_c.CTest.test_one pass" "test_c test.test_c.CTest.test_skip skip"
}

test_difference_is_named() {
	common_suite
	outcomes opt \
		"test_a test.test_a.ATest.test_one fail" "test_a test.test_a.ATest.test_two pass" \
		"test_b test.test_b.BTest.test_one pass" "test_b test.test_b.BTest.test_two fail" \
		"test_c test.test_c.CTest.test_one pass" "test_c test.test_c.CTest.test_skip skip"
	compare -- -u all,-cpu test_a test_b test_c
	[ "$rc" = 1 ] || { cat stdout stderr; fail "exit status $rc, expected 1"; }
	expect_eq "$(tail -n 1 stderr)" "cpython-test-compare: fails only on the optimized build: test_b (test.test_b.BTest.test_two)" "naming line"
	expect_eq "$(json_get work/compare.json ok)" false
	expect_eq "$(json_get work/compare.json only_optimized)" '["test_b", "test.test_b.BTest.test_two"]'
	expect_eq "$(json_get work/compare.json same)" '["test_a", "test.test_a.ATest.test_one"]'
	expect_eq "$(json_get work/compare.json only_plain)" '[]'
	expect_eq "$(json_get work/compare.json flaky)" '[]'
	expect_eq "$(json_get work/compare.json optimized.failed)" '["test_a", "test_b"]'
	expect_eq "$(json_get work/compare.json plain.failed)" '["test_a"]'
	expect_eq "$(json_get work/compare.json plain.failed_cases)" '["test.test_a.ATest.test_one"]'
	expect_eq "$(json_get work/compare.json optimized.tests_run)" 6
	expect_eq "$(json_get work/compare.json plain.tests_skipped)" 1
	expect_contains work/compare.txt '^failures same on the plain build \(2\):'
	expect_contains work/compare.txt '^    test_b \(test\.test_b\.BTest\.test_two\)$'
	expect_contains work/compare.txt '^result: FAIL'
	expect_contains stdout '^test cases run +6 +6$'
	diff work/compare.txt <(sed -n '/^optimized: /,$p' stdout) || fail "compare.txt differs from the report on stdout"
	# each run in its build directory, with its library path, under the default limit of 6 GB,
	# one after the other; then the re-run of test_b alone on both, keeping -u but no test names
	local d=$PWD
	expect_eq "$(sed 's/ cwd=.*//' calls | tr '\n' ' ')" "start opt end opt start plain end plain start opt end opt start plain end plain " "order of runs"
	expect_eq "$(sed -n 1p calls)" "start opt cwd=$d/opt ld=$d/opt vlimit=6291456 args=-j 2 --timeout 1200 --junit-xml $d/work/optimized/junit.xml -u all,-cpu test_a test_b test_c"
	expect_contains calls "^start plain cwd=$d/plain ld=$d/plain vlimit=6291456 args=-j 2 --timeout 1200 --junit-xml $d/work/plain/junit.xml "
	expect_contains calls "^start opt .* args=-j 1 -v --timeout 1200 --junit-xml $d/work/optimized/rerun-junit.xml -u all,-cpu test_b$"
	expect_contains calls "^start plain .* args=-j 1 -v --timeout 1200 --junit-xml $d/work/plain/rerun-junit.xml -u all,-cpu test_b$"
	for f in optimized/regrtest.log optimized/junit.xml plain/regrtest.log plain/rerun.log; do
		[ -s "work/$f" ] || fail "no work/$f"
	done
	expect_eq "$(cat work/optimized/exit-status)" 2 "regrtest's exit status, kept"
}

test_no_difference_is_ok() {
	common_suite
	cp plain/outcomes opt/outcomes
	compare --timeout=60 --memory-limit=1024
	[ "$rc" = 0 ] || { cat stdout stderr; fail "exit status $rc, expected 0"; }
	expect_eq "$(json_get work/compare.json ok)" true
	expect_eq "$(json_get work/compare.json only_optimized)" '[]'
	expect_eq "$(json_get work/compare.json same)" '["test_a", "test.test_a.ATest.test_one"]'
	expect_eq "$(json_get work/compare.json rerun)" false
	expect_contains calls 'vlimit=1048576 args=-j 2 --timeout 60 '
	expect_eq "$(grep -c '^start' calls)" 2 "runs (no re-run when nothing differs)"
	expect_contains stdout '^result: ok'
	[ ! -s stderr ] || { cat stderr; fail "stderr not empty"; }
}

# A cross build's runner starts both interpreters (every run: the start check, the suite).
test_runner_starts_both_interpreters() {
	common_suite
	cp plain/outcomes opt/outcomes
	printf '#!/bin/sh\necho "$*" >> "%s/runner.log"\nexec "$@"\n' "$PWD" > runner.sh && chmod +x runner.sh
	compare --timeout=60 --memory-limit=0 --runner="$PWD/runner.sh"
	[ "$rc" = 0 ] || { cat stdout stderr; fail "exit status $rc, expected 0"; }
	expect_contains runner.log "^$PWD/opt/python -c "
	expect_contains runner.log "^$PWD/plain/python -m test -j 2 --timeout 60 "
	expect_eq "$(grep -c -- ' -m test ' runner.log)" 2 "suite runs through the runner"
}

test_flaky_failure_passes_on_rerun() {
	common_suite
	outcomes opt \
		"test_a test.test_a.ATest.test_one fail" "test_a test.test_a.ATest.test_two pass" \
		"test_b test.test_b.BTest.test_one flaky" "test_b test.test_b.BTest.test_two pass" \
		"test_c test.test_c.CTest.test_one pass" "test_c test.test_c.CTest.test_skip skip"
	compare
	[ "$rc" = 0 ] || { cat stdout stderr; fail "exit status $rc, expected 0"; }
	expect_eq "$(json_get work/compare.json flaky)" '["test_b", "test.test_b.BTest.test_one"]'
	expect_contains work/compare.json '"test.test_b.BTest.test_one": "passed on re-run"'
	# The table Misc/BENCHMARKS shows, from the result: one row, the flaky file named.
	"$SRCDIR/Tools/scripts/test-compare-table" 3.13-x=work/compare.json > table.txt ||
		{ cat table.txt; fail "test-compare-table"; }
	expect_contains table.txt '^3\.13-x +3/3 +6/6 +1 +0 +1 +0  no test fails only on the optimized build$'
	expect_contains table.txt '^  flaky, passed on re-run: +test_b$'
	expect_contains table.txt '^  failing on both builds: +test_a$'
	expect_status 1 "$SRCDIR/Tools/scripts/test-compare-table" x=stdout
	expect_contains out 'stdout: '
	expect_eq "$(json_get work/compare.json only_optimized)" '[]'
	expect_eq "$(json_get work/compare.json ok)" true
	expect_contains work/compare.txt '^    test_b \(test\.test_b\.BTest\.test_one\) -- passed on re-run$'
	# without the re-run, the same failure is a difference
	rm -f opt/count.*
	compare --rerun=no
	expect_eq "$rc" 1 "exit status without the re-run"
	expect_eq "$(tail -n 1 stderr)" "cpython-test-compare: fails only on the optimized build: test_b (test.test_b.BTest.test_one)"
	expect_eq "$(json_get work/compare.json rerun)" false
}

test_whole_file_failures_from_the_log() {
	common_suite
	outcomes plain \
		"test_a test.test_a.ATest.test_one fail" "test_a test.test_a.ATest.test_two pass" \
		"test_b test.test_b.BTest.test_one pass" \
		"test_c test.test_c.CTest.test_one pass" \
		"test_d test.test_d.DTest.test_one pass" \
		"test_e test.test_e.ETest.test_one pass" \
		"test_t test.test_t.TTest.test_one pass" "test_t - timeout" \
		"test_p test.test_p.PTest.test_one pass" "test_p - crash"
	outcomes opt \
		"test_a test.test_a.ATest.test_one fail" "test_a test.test_a.ATest.test_two pass" \
		"test_b test.test_b.BTest.test_one pass" "test_b - crash" \
		"test_c test.test_c.CTest.test_one pass" "test_c - envchanged" \
		"test_d test.test_d.DTest.test_one pass" "test_d test.test_d.DTest.test_sub subfail" \
		"test_e test.test_e.ETest.test_one pass" "test_e - timeout" \
		"test_t test.test_t.TTest.test_one pass" "test_t - timeout" \
		"test_p test.test_p.PTest.test_one pass"
	compare
	[ "$rc" = 1 ] || { cat stdout stderr; fail "exit status $rc, expected 1"; }
	expect_eq "$(tail -n 1 stderr)" "cpython-test-compare: fails only on the optimized build: test_b (whole file: worker non-zero exit code (Exit code -11)), test_c (whole file: failed (env changed)), test_d (test.test_d.DTest.test_sub), test_e (whole file: timed out (20 min))"
	expect_eq "$(json_get work/compare.json only_optimized)" '["test_b", "test_c", "test_d", "test.test_d.DTest.test_sub", "test_e"]'
	expect_eq "$(json_get work/compare.json same)" '["test_a", "test.test_a.ATest.test_one", "test_t"]'
	expect_eq "$(json_get work/compare.json only_plain)" '["test_p"]'
	expect_eq "$(json_get work/compare.json optimized.failed)" '["test_a", "test_b", "test_c", "test_d", "test_e", "test_t"]'
	# test_d's failed subtest is a nameless <testcase/> in the XML: named by the verbose re-run
	expect_eq "$(json_get work/compare.json optimized.failed_cases)" '["test.test_a.ATest.test_one"]'
	expect_contains work/compare.txt 'not name \(failed subtests\): optimized 1, plain 0'
	expect_contains calls '^start opt .* args=-j 1 -v --timeout 1200 --junit-xml .*/rerun-junit.xml test_b test_c test_d test_e$'
}

test_memory_limit_stops_a_runaway_test() {
	require python3
	common_suite
	outcomes opt \
		"test_a test.test_a.ATest.test_one fail" "test_a test.test_a.ATest.test_two pass" \
		"test_h test.test_h.HTest.test_hog hog"
	outcomes plain \
		"test_a test.test_a.ATest.test_one fail" "test_a test.test_a.ATest.test_two pass" \
		"test_h test.test_h.HTest.test_hog pass"
	compare --memory-limit=256 --rerun=no
	[ "$rc" = 1 ] || { cat stdout stderr; fail "exit status $rc, expected 1"; }
	expect_eq "$(tail -n 1 stderr)" "cpython-test-compare: fails only on the optimized build: test_h (test.test_h.HTest.test_hog)"
	expect_contains calls '^start opt .* vlimit=262144 '
	expect_contains work/optimized/junit.xml 'Cannot allocate memory'
	# without a limit the 1 GB mapping (never touched) succeeds
	compare --memory-limit=0 --rerun=no
	[ "$rc" = 0 ] || { cat stdout stderr; fail "exit status $rc without a limit, expected 0"; }
	expect_contains calls 'vlimit=unlimited'
	expect_contains stdout 'memory limit none'
}

test_bad_usage() {
	common_suite
	local s
	s=$(compare_script)
	expect_status 2 "$s" --plain=plain/python --work=w
	expect_contains out 'cpython-test-compare: --optimized=PYTHON is required'
	expect_contains out '^usage: cpython-test-compare --optimized=PYTHON'
	expect_status 2 "$s" --optimized=opt/python --plain=plain/python --work=w --frobnicate
	expect_contains out "unknown argument '--frobnicate'"
	expect_status 2 "$s" --optimized=nowhere/python --plain=plain/python --work=w
	expect_contains out '^cpython-test-compare: --optimized: no such file: nowhere/python$'
	chmod -x plain/python
	expect_status 2 "$s" --optimized=opt/python --plain=plain/python --work=w
	expect_contains out '^cpython-test-compare: --plain: not executable: plain/python$'
	chmod +x plain/python
	expect_status 2 "$s" --optimized=opt --plain=plain/python --work=w
	expect_contains out '--optimized: is a directory'
	expect_status 2 "$s" --optimized=opt/python --plain=plain/python --work=w --jobs=0
	expect_contains out "^cpython-test-compare: --jobs wants a positive integer, not '0'$"
	expect_status 2 "$s" --optimized=opt/python --plain=plain/python --work=w --jobs=two
	expect_contains out "not 'two'"
	expect_status 2 "$s" --optimized=opt/python --plain=plain/python --work=w --timeout=-5
	expect_contains out "--timeout wants a positive number of seconds"
	expect_status 2 "$s" --optimized=opt/python --plain=plain/python --work=w --memory-limit=6G
	expect_contains out "--memory-limit wants a number of megabytes"
	expect_status 2 "$s" --optimized=opt/python --plain=plain/python --work=w --rerun=maybe
	expect_contains out "--rerun wants yes or no, not 'maybe'"
	: > afile
	expect_status 2 "$s" --optimized=opt/python --plain=plain/python --work=afile/w
	expect_contains out '^cpython-test-compare: --work: cannot create directory afile/w$'
	expect_status 2 "$s" --optimized=opt/python --plain=plain/python --work=afile
	expect_contains out '^cpython-test-compare: --work: cannot create directory afile$'
	[ ! -e calls ] || fail "a fake ran on bad usage"
	expect_status 0 "$s" --help
	expect_contains out '^Exit status: 0 when nothing fails only on the optimized build'
}

test_interpreter_that_cannot_run() {
	common_suite
	cp plain/outcomes opt/outcomes
	: > opt/nostart
	compare
	expect_eq "$rc" 2 "exit status when the optimized interpreter cannot start"
	expect_contains stderr '^cpython-test-compare: the optimized interpreter cannot start or has no regrtest \(test.libregrtest\): .*/opt/python$'
	expect_contains stderr 'Fatal Python error: init_import_site'
	[ ! -e calls ] || fail "a suite ran though an interpreter cannot start"
	rm opt/nostart
	: > plain/noxml
	compare
	expect_eq "$rc" 2 "exit status when the plain suite cannot run"
	expect_contains stderr '^cpython-test-compare: the test suite could not run on the plain interpreter: no junit XML written \(regrtest exit status 1; log: .*/work/plain/regrtest.log\)$'
	expect_contains stderr 'ImportError: cannot import name'
	[ ! -e work/compare.json ] || fail "compare.json written though the plain suite could not run"
	# a run of no test at all writes no XML either
	rm plain/noxml
	: > opt/outcomes
	compare
	expect_eq "$rc" 2 "exit status when the optimized suite ran no test"
	expect_contains stderr 'could not run on the optimized interpreter: no junit XML written \(regrtest exit status 0;'
}
