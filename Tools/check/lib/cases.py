"""The runner Tools/check's programs share: each case of a check runs in a process of its own
(the same interpreter), so that a case that crashes the interpreter is named with its signal.
A check calls main(NAME, CASES, run_case, WHAT): with one argument it runs that case in this
process (run_case returns 0 when it ended as it must, else prints what it did and returns 1);
without, every case in a child, and it prints "NAME: N of M cases WHAT" and exits 0 or 1."""
import subprocess
import sys


def main(check, cases, run_case, what):
    if len(sys.argv) == 2:
        if sys.argv[1] not in cases:
            print("%s: no case %r (cases: %s)" % (check, sys.argv[1], ", ".join(cases)))
            return 2
        return run_case(sys.argv[1])
    wrong = []
    for name in cases:
        child = subprocess.run([sys.executable, sys.argv[0], name], stdout=subprocess.PIPE,
                               stderr=subprocess.STDOUT, text=True)
        if child.returncode < 0:
            wrong.append("%s: killed by signal %d" % (name, -child.returncode))
        elif child.returncode != 0:
            said = child.stdout.strip().splitlines()
            wrong.append("%s: %s" % (name, said[-1] if said else "exit %d" % child.returncode))
    for line in wrong:
        print("%s: %s" % (check, line))
    print("%s: %d of %d cases %s" % (check, len(cases) - len(wrong), len(cases), what))
    return 1 if wrong else 0
