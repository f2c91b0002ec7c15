# t0510-bench-where.sh - Tools/scripts/bench-where: perf's clock samples per function, one
# interpreter against another, on a real python3 under two names, one of which does twice
# the work.

where_setup() {
	require python3 perf
	perf record -q -e cpu-clock -o probe.data true >probe.out 2>&1 ||
		skip "perf cannot record here: $(tail -n 1 probe.out) (kernel.perf_event_paranoid)"
	PY=$(python3 -c 'import sys; print(sys.executable)')
	ln -s "$PY" py-double
	mkdir suite && cp "$SRCDIR/Tools/bench/run.py" suite/
	# Work in one C function of the interpreter (sorting), twice as much under the name py-double.
	printf 'import sys\nROUNDS = 2 if sys.executable.endswith("/py-double") else 1\nDATA = [(i * 7919) %% 10007 for i in range(20000)]\ndef bench():\n    for _ in range(ROUNDS * 20):\n        sorted(DATA)\n' >suite/bm_sorts.py
}

test_twice_the_work_shows_as_more_samples_in_the_same_function() {
	where_setup
	"$SRCDIR/Tools/scripts/bench-where" --suite="$PWD/suite" --loops=15 --json=where.json \
		sorts once="$PY" double="$PWD/py-double" >where.out 2>where.err || { cat where.out where.err; fail "bench-where"; }
	expect_contains where.out '^sorts: 15 loops per run, 2 runs per interpreter, perf cpu-clock samples at 4000 Hz$'
	expect_contains where.out '^functions, largest differences from once first:$'
	python3 - <<'PY' || fail "the samples do not follow the work"
import json
d = json.load(open("where.json"))
once, double = d["interpreters"]
assert (once["name"], double["name"]) == ("once", "double"), d["interpreters"]
assert len(once["samples"]) == 2 and len(double["samples"]) == 2
# No ratio of times is asserted (a test must pass on a loaded machine, where wall time moves
# and CPU time less so): only that the samples go the work's way, by a margin twice the work
# keeps under any load, and land in the same function, which does the sorting.
r = sum(double["samples"]) / sum(once["samples"])
assert r > 1.2, "double's samples are %.2fx once's" % r
fn = max(once["functions"], key=once["functions"].get)
assert fn == max(double["functions"], key=double["functions"].get), (fn, double["functions"])
assert double["functions"][fn] > once["functions"][fn], fn
assert sum(once["functions"].values()) == sum(once["samples"])
PY
	# The table's first function is the one that moved most, with its ratio.
	first=$(sed -n '/^functions,/{n;n;p;}' where.out)
	case $first in *x) ;; *) fail "no ratio on the first function line: '$first'" ;; esac
}

test_bad_input_is_named() {
	where_setup
	expect_status 1 "$SRCDIR/Tools/scripts/bench-where" --suite="$PWD/suite" --loops=1 nosuch a="$PY"
	expect_contains out "^bench-where: workload 'nosuch' on a \(.*\) failed \(exit status [0-9]+\): run.py: no workload 'nosuch'"
	expect_status 1 "$SRCDIR/Tools/scripts/bench-where" sorts "$PY"
	expect_contains out "interpreters are given as NAME=PYTHON"
	expect_status 1 "$SRCDIR/Tools/scripts/bench-where" --runs=0 sorts a="$PY"
	expect_contains out "^bench-where: --runs=0 is out of range$"
	expect_status 1 "$SRCDIR/Tools/scripts/bench-where" --cpu=100000 sorts a="$PY"
	expect_contains out "^bench-where: --cpu=100000: this machine has CPUs 0 to [0-9]+$"
	expect_status 1 "$SRCDIR/Tools/scripts/bench-where" --suite="$PWD" sorts a="$PY"
	expect_contains out "^bench-where: no run.py in the suite"
	expect_status 1 "$SRCDIR/Tools/scripts/bench-where" --suite="$PWD/suite" --json=no/such/dir/w.json sorts a="$PY"
	expect_contains out "^bench-where: cannot write no/such/dir/w.json: its directory is missing or not writable$"
	expect_status 1 "$SRCDIR/Tools/scripts/bench-where" --suite="$PWD/suite" sorts a="$PY" b="$PWD/no-such-python"
	expect_contains out "^bench-where: interpreter b: .*/no-such-python is not an executable file$"
	expect_status 1 env PATH=/nonexistent "$PY" "$SRCDIR/Tools/scripts/bench-where" sorts a="$PY"
	expect_contains out "^bench-where: perf is not installed \(Debian: apt-get install linux-perf\)$"
	expect_not_contains out Traceback
}

test_report_lines_become_functions() {
	require python3
	python3 - "$SRCDIR/Tools/scripts/bench-where" <<'PY' || fail "parse_report"
import importlib.machinery, importlib.util, sys
loader = importlib.machinery.SourceFileLoader("bench_where", sys.argv[1])
m = importlib.util.module_from_spec(importlib.util.spec_from_loader("bench_where", loader))
loader.exec_module(m)
report = """# comment lines and blank ones are not samples

    60.99%          4081  python               [.] _PyEval_EvalFrameDefault
     9.72%            41  [kernel.kallsyms]    [k] exc_page_fault
     7.82%            33  [kernel.kallsyms]    [k] clear_page_erms
     4.98%            21  python3.11           [.] 0x000000000017f86d
     3.79%            16  /usr/lib/libz.so.1   [.] 0x000000000010766b
     2.00%            12  python               [.] gc_collect_main.llvm.160709373965918
     1.00%             5  python               [.] gc_collect_main.llvm.998877
     0.50%             3  python               [.] sre_ucs1_match.lto_priv.0
     0.50%             2  python               [.] dictresize.isra.0
"""
got = m.parse_report(report)
want = {"_PyEval_EvalFrameDefault": 4081, "[kernel]": 74, "[python3.11: no symbols]": 21,
        "[libz.so.1: no symbols]": 16, "gc_collect_main": 17, "sre_ucs1_match": 3, "dictresize.isra.0": 2}
assert got == want, got
PY
}
