"""Deep recursion through the interpreter's C paths must end in RecursionError, never in a
crash.  A PGO build that inlines a function with a large stack buffer into a function on such
a path (attribute lookup, the eval loop, repr, JSON, pickle) grows every level's C stack
frame: the recursion limit then comes after the C stack is gone, and the program segfaults.
Run by profopt's verify stage on the optimized interpreter; each case runs in a process of its
own (the same interpreter), so that a crash is named; exits 0 when every case raised
RecursionError, 1 naming the cases that ended otherwise."""
import json
import os
import pickle
import sys
import types

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "lib"))
import cases  # noqa: E402  (Tools/check/lib: the runner the checks share)


class Lookup:
    def __getattr__(self, name):
        return getattr(self, name + "x")


def lazy_module():
    module = types.ModuleType("lazy")
    module.__getattr__ = lambda name: getattr(module, name + "x")
    return module


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
    "module getattr": lambda: lazy_module().a,
    "repr": lambda: repr(Shown()),
    "compare": lambda: Compared() == Compared(),
    "json default": lambda: encode_forever(object()),
    "json nesting": lambda: json.dumps(nested_list(100000)),
    "repr nesting": lambda: repr(nested_list(100000)),
    "pickle": lambda: pickle.dumps(Reduced()),
}


def run_case(name):
    """In this process: 0 when the case raised RecursionError, else 1 with what it did."""
    try:
        CASES[name]()
    except RecursionError:
        return 0
    except Exception as exc:
        print("%s instead of RecursionError" % type(exc).__name__)
        return 1
    print("no RecursionError")
    return 1


if __name__ == "__main__":
    sys.exit(cases.main("deep_recursion", CASES, run_case, "ended in RecursionError"))
