"""Deep recursion through the interpreter's C paths must end in RecursionError, never in a
crash.  A PGO build that inlines a function with a large stack buffer into a function on such
a path (attribute lookup, the eval loop, repr, JSON, pickle) grows every level's C stack
frame: the recursion limit then comes after the C stack is gone, and the program segfaults.
Run by profopt's verify stage on the optimized interpreter; exits 0 when every case raised
RecursionError, 1 naming the cases that ended otherwise (a crash kills the process)."""
import json
import pickle
import sys


class Lookup:
    def __getattr__(self, name):
        return getattr(self, name + "x")


class Shown:
    def __repr__(self):
        return repr(self)


class Compared:
    def __eq__(self, other):
        return self == other


def nested_list(depth):
    value = []
    for _ in range(depth):
        value = [value]
    return value


def encode_forever(obj):
    return json.dumps(obj, default=lambda o: [object()])


class Reduced:
    def __reduce__(self):
        return (Reduced, (), Reduced())


CASES = {
    "getattr": lambda: Lookup().a,
    "repr": lambda: repr(Shown()),
    "compare": lambda: Compared() == Compared(),
    "json default": lambda: encode_forever(object()),
    "json nesting": lambda: json.dumps(nested_list(100000)),
    "repr nesting": lambda: repr(nested_list(100000)),
    "pickle": lambda: pickle.dumps(Reduced()),
}


def main():
    wrong = []
    for name, case in CASES.items():
        try:
            case()
        except RecursionError:
            continue
        except Exception as exc:
            wrong.append("%s: %s instead of RecursionError" % (name, type(exc).__name__))
            continue
        wrong.append("%s: no RecursionError" % name)
    for line in wrong:
        print("deep_recursion:", line)
    print("deep_recursion: %d of %d cases ended in RecursionError" % (len(CASES) - len(wrong), len(CASES)))
    return 1 if wrong else 0


if __name__ == "__main__":
    sys.exit(main())
