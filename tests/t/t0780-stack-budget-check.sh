# Tools/check/stack_budget.py, which verify runs on the optimized interpreter: every recursive C
# path ends in RecursionError (or CPython's own error there) within 6 MB of stack, 75% of the
# default; a path that crashes fails the check, named with its stack per level, unless CPython
# has no guard on it or a plain build crashes there too.  Run here on the machine's python3.

paths_in_check() {
	python3 -c 'import runpy, sys; print(len(runpy.run_path(sys.argv[1])["PATHS"]))' "$SRCDIR/Tools/check/stack_budget.py"
}

test_a_sound_interpreter_passes_and_says_its_stack_per_level() {
	require python3
	n=$(paths_in_check)
	test "$n" -ge 50 || fail "only $n paths"
	python3 "$SRCDIR/Tools/check/stack_budget.py" --json=budget.json > out 2>&1 || { cat out; fail "python3 failed the check"; }
	expect_contains out "^stack_budget: [0-9]+ of $n paths within 6 MB of stack"
	expect_contains out '^stack_budget: getattr +[0-9]+ bytes/level +ok$'
	# the probe read the stack pointer at two depths: a callback level costs C frames, a level
	# of pure Python (the Python pickler) costs none
	python3 - budget.json <<'PY' || fail "the JSON's numbers are not what a level costs"
import json, sys
r = json.load(open(sys.argv[1]))
mine = r["optimized"]
assert 200 < mine["getattr"]["per_level"] < 4000, mine["getattr"]
assert mine["pickle (Python pickler)"]["per_level"] < 16, mine["pickle (Python pickler)"]
assert mine["pickle reduce state"]["per_level"] > 64, mine["pickle reduce state"]
assert all(p["ok"] or p["signal"] for p in mine.values())
assert r["budget"] == 6 << 20 and r["plain"] is None
PY
}

test_a_path_that_runs_out_of_stack_fails_naming_it() {
	require python3
	# 256 KiB: too little for a thousand levels of attribute lookup on any build
	expect_status 1 python3 "$SRCDIR/Tools/check/stack_budget.py" --budget=262144 --paths="getattr,repr nesting"
	expect_contains out '^stack_budget: getattr +[0-9]+ bytes/level +killed by signal 11$'
	expect_contains out '^stack_budget: 1 of 2 paths within 256 KB of stack$'
}

test_a_path_the_plain_build_crashes_too_is_cpythons() {
	require python3
	# the same interpreter as the "plain" build: the crash is then the source's, and both
	# builds' stack per level are named
	expect_status 0 python3 "$SRCDIR/Tools/check/stack_budget.py" --budget=262144 --paths=getattr --plain="$(command -v python3)"
	expect_contains out "^stack_budget: getattr +[0-9]+ bytes/level, plain [0-9]+ +killed by signal 11, plain too: CPython's own limit$"
	expect_contains out "^stack_budget: 0 of 1 paths within 256 KB of stack, 1 more crash as CPython's own limit$"
}

test_a_path_without_a_guard_is_cpythons() {
	require python3
	# hashing a nested tuple has no recursion guard: it crashes at any stack, as CPython does
	expect_status 0 python3 "$SRCDIR/Tools/check/stack_budget.py" --paths="hash nesting (tuple)"
	expect_contains out "hash nesting \(tuple\) +[0-9]+ bytes/level +killed by signal 11: CPython's own limit \(no guard\)$"
}

test_an_unknown_path_or_option_is_refused() {
	require python3
	expect_status 2 python3 "$SRCDIR/Tools/check/stack_budget.py" --paths=nosuch
	expect_contains out "not understood: path 'nosuch'"
	expect_status 2 python3 "$SRCDIR/Tools/check/stack_budget.py" --budget=lots
	expect_contains out '^usage: stack_budget.py'
	expect_status 2 python3 "$SRCDIR/Tools/check/stack_budget.py" --measure nosuch
}

# Tools/check/slot_identity.py: what identical code folding breaks (functions CPython compares
# by address, merged: a list plus a tuple subclass crashed an interpreter rewritten by
# llvm-bolt -icf=1) gives the right answer on a sound interpreter, and a wrong one is named.
test_slot_identity_passes_on_a_sound_interpreter() {
	require python3
	PYTHONDONTWRITEBYTECODE=1 python3 "$SRCDIR/Tools/check/slot_identity.py" > out 2>&1 || { cat out; fail "python3 failed the check"; }
	expect_contains out '^slot_identity: 11 of 11 cases gave the right answer$'
}

test_slot_identity_names_a_wrong_answer() {
	require python3
	printf 'import runpy, sys
m = runpy.run_path(sys.argv[1])
m["CASES"]["date + int"] = m["raises_type_error"](lambda: 1)
m["CASES"]["list subclass + list"] = m["equals"](lambda: [2, 1], [1, 2])
sys.exit(m["run_case"](sys.argv[2]))
' > one.py
	expect_status 1 env PYTHONDONTWRITEBYTECODE=1 python3 one.py "$SRCDIR/Tools/check/slot_identity.py" "date + int"
	expect_contains out '^returned 1 instead of raising TypeError$'
	expect_status 1 env PYTHONDONTWRITEBYTECODE=1 python3 one.py "$SRCDIR/Tools/check/slot_identity.py" "list subclass + list"
	expect_contains out '^gave \[2, 1\], not \[1, 2\]$'
}

# The runner the checks share (Tools/check/lib/cases.py) runs each case in a child and names a
# case that kills the interpreter with its signal, and one that ends otherwise with its words.
test_the_shared_runner_names_a_crash() {
	require python3
	printf 'import os, signal, sys
sys.path.insert(0, "%s/Tools/check/lib")
import cases
def run_case(name):
    if name == "boom":
        os.kill(os.getpid(), signal.SIGSEGV)
    if name == "wrong":
        print("said so")
        return 1
    return 0
sys.exit(cases.main("crashy", {"fine": 0, "boom": 0, "wrong": 0}, run_case, "passed"))
' "$SRCDIR" > crashy.py
	expect_status 1 env PYTHONDONTWRITEBYTECODE=1 python3 crashy.py
	expect_contains out '^crashy: boom: killed by signal 11$'
	expect_contains out '^crashy: wrong: said so$'
	expect_contains out '^crashy: 1 of 3 cases passed$'
}
