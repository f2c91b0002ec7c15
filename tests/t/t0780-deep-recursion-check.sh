# Tools/check/deep_recursion.py, which verify runs on the optimized interpreter: every case of
# deep recursion through C code ends in RecursionError on a sound interpreter, and the check
# dies when the C stack runs out before the recursion limit (what a PGO build that inlines a
# large stack buffer into attribute lookup or the eval loop does: seen with clang's IR
# instrumentation).

test_a_sound_interpreter_passes() {
	require python3
	python3 "$SRCDIR/Tools/check/deep_recursion.py" > out 2>&1 || { cat out; fail "python3 failed the check"; }
	expect_contains out '^deep_recursion: 8 of 8 cases ended in RecursionError$'
}

test_a_stack_that_runs_out_first_fails() {
	require python3
	# CPython 3.12 and later know their C stack's size and raise RecursionError in time; 3.11
	# (Debian bookworm's python3) counts levels only, so a small stack makes it crash.
	python3 -c 'import sys; sys.exit(sys.version_info >= (3, 12))' || skip "python3 is 3.12 or later: it checks its C stack itself"
	if (ulimit -s 256 && exec python3 "$SRCDIR/Tools/check/deep_recursion.py") > out 2>&1; then
		cat out; fail "the check passed on a C stack of 256 KiB"
	fi
	expect_contains out '^deep_recursion: getattr: killed by signal 11$'
	expect_not_contains out '8 of 8 cases'
}

test_a_case_that_ends_otherwise_is_named() {
	require python3
	# one case in-process, as the check's children run it: a RecursionError passes
	python3 "$SRCDIR/Tools/check/deep_recursion.py" repr > out 2>&1 || { cat out; fail "the repr case failed"; }
	# a case that returns instead is named with what it did; an unknown case is refused
	printf 'import runpy, sys
m = runpy.run_path(sys.argv[1])
m["CASES"]["repr"] = lambda: 1
sys.argv[1:] = ["repr"]
sys.exit(m["run_case"]("repr"))
' > one.py
	expect_status 1 python3 one.py "$SRCDIR/Tools/check/deep_recursion.py"
	expect_contains out '^no RecursionError$'
	expect_status 2 python3 "$SRCDIR/Tools/check/deep_recursion.py" nosuchcase
	expect_contains out "no case 'nosuchcase' \(cases: getattr, module getattr, repr"
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
