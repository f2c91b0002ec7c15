"""The stack budget: every recursive C path of the interpreter ends in RecursionError (or the
error CPython raises there), never in a signal, with a quarter of the default stack to spare.

CPython 3.13 and older count C recursion against a fixed limit and trust each level's C frames
to fit the default 8 MB stack; profile-guided inlining grows those frames.  This check drives
each path (PATHS below, from Py_EnterRecursiveCall's callers) to its limit in a child whose
stack is BUDGET, 75% of the default, and measures the stack each level of the path uses: the
stack pointer (from /proc/self/syscall) at two depths, read by a probe at the innermost level.

    stack_budget.py                 every path; exit 1 naming a path that ended in a signal
    stack_budget.py --json=FILE     also writes the results as JSON
    stack_budget.py --plain=PYTHON  also measures a plain build of the same source: a path
                                    that crashes there too is CPython's, not the build's
    stack_budget.py --paths=A,B     only those paths;  --budget=BYTES  another budget
    stack_budget.py --measure PATH | --budget PATH | --guarded PATH   one child's work

A path that crashes within the budget is the build's fault only if CPython guards it: a
guarded path raises at a large stack (LARGE); one that does not (hashing a nested tuple in
3.13 has no guard) is reported as CPython's own limitation and fails nothing."""
import copy
import json
import os
import pickle
import resource
import subprocess
import sys

BUDGET = 6 << 20
LARGE = 256 << 20
DEEP = 200_000            # a structure's depth: deeper than any guard lets a path go
NEAR, FAR = 50, 550       # the two depths the probe reads the stack pointer at
PYTHON_ONLY_DEPTH = 20_000  # a path of Python code only: deep enough to show it needs no C stack
GUARD_LEVELS = 30_000     # more levels than any of CPython's limits lets a guarded path reach
TIMEOUT = 300             # seconds a child may take
PY_LIMIT = 100_000        # Python's own limit, raised so that the C limit is the one reached
# Since 3.12 Python-to-Python calls use no C stack and C recursion has its own counter, so a
# raised Python limit is safe and is what users do; 3.11 counts both against one limit.
RAISE_PY_LIMIT = sys.version_info >= (3, 12)


def stack_pointer():
    with open("/proc/self/syscall", "rb") as f:
        return int(f.read().split()[-2], 16)


class Chain:
    """Nodes each calling the operation on the next; the last (nxt None) calls probe."""
    def following(self):
        """The next node; a new one each time for an endless chain, so that no memo or cycle
        check (pickle's, json's) ends the path early."""
        return type(self).make(None, self.probe) if self.nxt is self else self.nxt

    @classmethod
    def make(cls, depth, probe):
        """depth levels, then probe; with depth None, one node that is its own next: the path
        recurses until something stops it."""
        node = None
        for _ in range(1 if depth is None else depth + 1):
            new = object.__new__(cls)
            object.__setattr__(new, "nxt", node)
            object.__setattr__(new, "probe", probe)
            node = new
        if depth is None:
            object.__setattr__(node, "nxt", node)
        return node


def chained(method):
    """A node class whose dunder calls the operation on the next node, or probe at the end."""
    def make(end):
        def dunder(self, *args):
            nxt = object.__getattribute__(self, "nxt")
            if nxt is None:
                object.__getattribute__(self, "probe")()
                return end
            return method(nxt, *args)
        return dunder
    return make


def node_class(name, dunder, method, end):
    return type(name, (Chain,), {dunder: chained(method)(end)})


def nested(depth, inner, wrap):
    value = inner
    for _ in range(DEEP if depth is None else depth):
        value = wrap(value)
    return value


class Probe:
    """The innermost object of a nested structure: whatever the path asks of it calls probe."""
    def __init__(self, probe):
        self.probe = probe

    def __repr__(self):
        self.probe()
        return "p"

    def __eq__(self, other):
        self.probe()
        return True

    def __hash__(self):
        self.probe()
        return 0

    def __reduce__(self):
        self.probe()
        return (int, ())

    def __deepcopy__(self, memo):
        self.probe()
        return self


def probe_tuple_class(probe):
    class Meta(type):
        def __instancecheck__(cls, inst):
            probe()
            return False

        def __subclasscheck__(cls, sub):
            probe()
            return False
    return Meta("Probed", (), {})


# ---- callbacks: a Python method at each level calls back into C

def via(dunder, method, end=None):
    def run(depth, probe):
        return method(node_class("N", dunder, method, end).make(depth, probe))
    return run


def getattr_path(depth, probe):
    class G(Chain):
        def __getattr__(self, name):
            nxt = object.__getattribute__(self, "nxt")
            if nxt is None:
                object.__getattribute__(self, "probe")()
                return 0
            return getattr(nxt, name)
    return G.make(depth, probe).a


def module_getattr_path(depth, probe):
    import types
    modules = []
    for i in range(1 if depth is None else depth + 1):
        modules.append(types.ModuleType("m%d" % i))
    for i, module in enumerate(modules):
        nxt = modules[0] if depth is None else (modules[i + 1] if i + 1 < len(modules) else None)
        module.__getattr__ = (lambda nxt: lambda name: getattr(nxt, name) if nxt is not None
                              else probe())(nxt)
    return modules[0].a


def init_path(depth, probe):
    class A:
        def __init__(self, n):
            if n == 0:
                probe()
            else:
                A(n - 1)
    return A(DEEP if depth is None else depth)


def builtin_call_path(depth, probe):
    def f(n):
        if n == 0:
            return probe()
        return list(map(f, [n - 1]))
    return f(DEEP if depth is None else depth)


def property_path(depth, probe):
    class P(Chain):
        @property
        def a(self):
            if self.nxt is None:
                return self.probe()
            return self.nxt.a
    return P.make(depth, probe).a


def isinstance_path(depth, probe):
    class Meta(type):
        def __instancecheck__(cls, inst):
            if cls.nxt is None:
                return probe()
            return isinstance(inst, cls.nxt)
    classes = [Meta("C%d" % i, (), {}) for i in range(1 if depth is None else depth + 1)]
    for i, cls in enumerate(classes):
        cls.nxt = classes[0] if depth is None else (classes[i + 1] if i + 1 < len(classes) else None)
    return isinstance(1, classes[0])


def bases_path(depth, probe):
    class B(Chain):
        @property
        def __bases__(self):
            if self.nxt is None:
                self.probe()
                return ()
            return (self.nxt, NotAClass())    # two bases: CPython walks one base in a loop

    class NotAClass:
        __bases__ = ()
    return issubclass(B.make(depth, probe), NotAClass())


def exception_group_path(depth, probe):
    group = nested(depth, ValueError(), lambda e: ExceptionGroup("g", [e]))

    def leaf(e):
        if not isinstance(e, ExceptionGroup):
            probe()
        return False
    return group.split(leaf)


def generator_throw_path(depth, probe):
    def inner():
        try:
            yield
        except KeyError:
            probe()
            yield

    def outer(gen):
        yield from gen
    gen = inner()
    for _ in range(DEEP if depth is None else depth):
        gen = outer(gen)
    next(gen)
    return gen.throw(KeyError)


# ---- pickle and unpickle

PROBE = [lambda: None]     # the probe of the pickling path running now (pickle wants module-level classes)


class Reduced(Chain):
    def __reduce__(self):
        if self.nxt is None:
            PROBE[0]()
            return (int, ())
        return (Reduced, (), self.following())


def reduce_state_path(depth, probe):
    PROBE[0] = probe
    return pickle.dumps(Reduced.make(depth, probe))


class Items:
    """A list or dict subclass reduced to a new object and its items, the next node."""
    def following(self):
        if self.nxt is not self:
            return self.nxt
        node = type(self)()
        node.nxt = node
        return node


class ListItems(Items, list):
    def __reduce__(self):
        if self.nxt is None:
            PROBE[0]()
            return (ListItems, ())
        return (ListItems, (), None, iter([self.following()]))


class DictItems(Items, dict):
    def __reduce__(self):
        if self.nxt is None:
            PROBE[0]()
            return (DictItems, ())
        return (DictItems, (), None, None, iter([("k", self.following())]))


def reduce_items_path(cls):
    def run(depth, probe):
        PROBE[0] = probe
        node = cls()
        node.nxt = None
        if depth is None:
            node.nxt = node
        for _ in range(depth or 0):
            parent = cls()
            parent.nxt = node
            node = parent
        return pickle.dumps(node)
    return run


class PickledList(list):
    pass


def pickle_nested(wrap, dumps=pickle.dumps):
    return lambda depth, probe: dumps(nested(depth, Probe(probe), wrap))


def python_pickle(obj):
    import io
    pickle._Pickler(io.BytesIO()).dump(obj)


def again():
    return pickle.loads(AGAIN)


class Again:
    def __reduce__(self):
        return (again, ())


AGAIN = pickle.dumps(Again())


def unpickle_path(loads):
    def run(depth, probe):
        # each level's reconstructor unpickles the next level, from inside the unpickler
        state = {"left": DEEP if depth is None else depth}

        def again_here():
            if state["left"] == 0:
                return probe()
            state["left"] -= 1
            return loads(AGAIN)
        globals()["again"] = again_here
        try:
            return again_here()
        finally:
            globals()["again"] = again
    return run


def unpickle_nested_list(depth, probe):
    d = DEEP if depth is None else depth
    data = b"\x80\x02" + b"]" * d + b"a" * (d - 1) + b"."
    return pickle.loads(data)


# ---- JSON both ways

def json_encode_path(c_encoder):
    def run(depth, probe):
        import json.encoder
        saved = json.encoder.c_make_encoder
        if not c_encoder:
            json.encoder.c_make_encoder = None
            # its generators pass each piece up every level: quadratic, and no C stack per level
            depth = min(depth or DEEP, PYTHON_ONLY_DEPTH)
        try:
            return json.dumps(nested(depth, object(), lambda v: [v]), default=lambda o: probe())
        finally:
            json.encoder.c_make_encoder = saved
    return run


def json_default_path(depth, probe):
    chain = Chain.make(depth, probe)

    def default(node):
        if node.nxt is None:
            return probe()
        return [node.following()]
    return json.dumps(chain, default=default)


def json_decode_path(c_scanner):
    def run(depth, probe):
        import json.scanner
        d = DEEP if depth is None else depth
        text = '{"a":' * d + "0" + "}" * d
        seen = []

        def hook(obj):
            if not seen:
                seen.append(probe())
            return obj
        decoder = json.JSONDecoder(object_hook=hook)
        if not c_scanner:
            decoder.scan_once = json.scanner.py_make_scanner(decoder)
        return decoder.decode(text)
    return run


# ---- the compiler

def compile_expression_path(depth, probe):
    return compile("-" * (DEEP if depth is None else depth) + "1", "<deep>", "eval")


def compile_ast_path(depth, probe):
    import ast
    where = dict(lineno=1, col_offset=0, end_lineno=1, end_col_offset=1)
    tree = nested(depth, ast.Constant(1, **where), lambda e: ast.UnaryOp(ast.USub(), e, **where))
    return compile(ast.Expression(tree), "<deep>", "eval")


def marshal_path(depth, probe):
    import marshal
    return marshal.dumps(nested(depth, 0, lambda v: [v]))


def nested_element(depth, text=None):
    """An ElementTree element nested depth levels deep, the innermost holding text."""
    from xml.etree import ElementTree

    def wrap(child):
        parent = ElementTree.Element("e")
        parent.append(child)
        return parent
    root = ElementTree.Element("r")
    root.text = text
    return nested(depth, root, wrap)


def element_copy_path(depth, probe):
    return copy.deepcopy(nested_element(depth, Probe(probe)))


def element_write_path(depth, probe):
    from xml.etree import ElementTree
    return ElementTree.tostring(nested_element(depth))


def dealloc_path(depth, probe):
    value = nested(depth, None, lambda v: [v])
    del value


# Each path: (function(depth, probe), the exceptions that end it as CPython means to).
RECURSION = (RecursionError,)
PATHS = {
    "getattr": (getattr_path, RECURSION),
    "module getattr": (module_getattr_path, RECURSION),
    "getattribute": (via("__getattribute__", lambda n, name="a": getattr(n, name)), RECURSION),
    "property": (property_path, RECURSION),
    "setattr": (via("__setattr__", lambda n, *a: setattr(n, "a", 0)), RECURSION),
    "repr callback": (via("__repr__", repr, "p"), RECURSION),
    "str callback": (via("__str__", str, "p"), RECURSION),
    "format callback": (via("__format__", lambda n, spec="": format(n, spec), ""), RECURSION),
    "repr nesting": (lambda d, p: repr(nested(d, Probe(p), lambda v: [v])), RECURSION),
    "dict repr nesting": (lambda d, p: repr(nested(d, Probe(p), lambda v: {1: v})), RECURSION),
    "frozenset repr nesting": (lambda d, p: repr(nested(d, Probe(p), lambda v: frozenset([v]))), RECURSION),
    "compare callback": (via("__eq__", lambda n, other=None: n == other, True), RECURSION),
    "compare nesting": (lambda d, p: nested(d, Probe(p), lambda v: [v]) == nested(d, Probe(p), lambda v: [v]),
                        RECURSION),
    "less-than callback": (via("__lt__", lambda n, other=None: n < other, False), RECURSION),
    "hash callback": (via("__hash__", hash, 0), RECURSION),
    "hash nesting (tuple)": (lambda d, p: hash(nested(d, Probe(p), lambda v: (v,))), RECURSION),
    "call callback": (via("__call__", lambda n: n()), RECURSION),
    "class instantiation": (init_path, RECURSION),
    "call through builtin": (builtin_call_path, RECURSION),
    "subscript callback": (via("__getitem__", lambda n, i=0: n[i], 0), RECURSION),
    "add callback": (via("__add__", lambda n, other=0: n + other, 0), RECURSION),
    "len callback": (via("__len__", len, 0), RECURSION),
    "bool callback": (via("__bool__", bool, False), RECURSION),
    "contains callback": (via("__contains__", lambda n, x=0: x in n, False), RECURSION),
    "index callback": (via("__index__", lambda n: __import__("operator").index(n), 0), RECURSION),
    "iter callback": (via("__iter__", iter, iter(())), RECURSION),
    "next callback": (via("__next__", next, 0), RECURSION),
    "bytes callback": (via("__bytes__", bytes, b""), RECURSION),
    "fspath callback": (via("__fspath__", lambda n: os.fspath(n), "p"), RECURSION),
    "isinstance callback": (isinstance_path, RECURSION),
    "isinstance nesting": (lambda d, p: isinstance(1, nested(d, probe_tuple_class(p), lambda v: (v,))), RECURSION),
    "issubclass nesting": (lambda d, p: issubclass(int, nested(d, probe_tuple_class(p), lambda v: (v,))), RECURSION),
    "issubclass by __bases__": (bases_path, RECURSION),
    "exception group split": (exception_group_path, RECURSION),
    "generator throw": (generator_throw_path, RECURSION),
    "pickle reduce state": (reduce_state_path, RECURSION),
    "pickle reduce list items": (reduce_items_path(ListItems), RECURSION),
    "pickle reduce dict items": (reduce_items_path(DictItems), RECURSION),
    "pickle list nesting": (pickle_nested(lambda v: [v]), RECURSION),
    "pickle dict nesting": (pickle_nested(lambda v: {"k": v}), RECURSION),
    "pickle tuple nesting": (pickle_nested(lambda v: (v,)), RECURSION),
    "pickle list subclass nesting": (pickle_nested(lambda v: PickledList([v])), RECURSION),
    "pickle (Python pickler)": (pickle_nested(lambda v: [v], python_pickle), RECURSION),
    "unpickle reconstructor": (unpickle_path(pickle.loads), RECURSION),
    "unpickle (Python unpickler)": (unpickle_path(pickle._loads), RECURSION),
    "unpickle list nesting": (unpickle_nested_list, RECURSION),
    "json encode nesting": (json_encode_path(True), RECURSION),
    "json encode (Python encoder)": (json_encode_path(False), RECURSION),
    "json default": (json_default_path, RECURSION),
    "json decode nesting": (json_decode_path(True), RECURSION),
    "json decode (Python scanner)": (json_decode_path(False), RECURSION),
    "deepcopy nesting": (lambda d, p: copy.deepcopy(nested(d, Probe(p), lambda v: [v])), RECURSION),
    "deepcopy callback": (via("__deepcopy__", lambda n, memo=None: copy.deepcopy(n), None), RECURSION),
    "ElementTree deepcopy": (element_copy_path, RECURSION),
    "ElementTree tostring": (element_write_path, RECURSION),
    "marshal nesting": (marshal_path, (ValueError,)),
    "compile expression": (compile_expression_path, (RecursionError, MemoryError, SyntaxError)),
    "compile AST": (compile_ast_path, RECURSION),
    "dealloc nesting": (dealloc_path, RECURSION),
}


def per_level(path):
    """Bytes of C stack one level of PATH uses: the deepest stack pointer the probe saw at NEAR
    levels and at FAR levels (None when no probe runs deeper at FAR: no C recursion to read)."""
    run, _ = PATHS[path]
    deepest = []
    for depth in (NEAR, FAR):
        seen = []
        run(depth, lambda: seen.append(stack_pointer()))
        deepest.append(min(seen) if seen else None)
    if None in deepest:
        return None
    return max(0, (deepest[0] - deepest[1]) / (FAR - NEAR))


def stack_mapped():
    """Bytes of the main thread's stack mapping, which grows to the deepest point reached."""
    with open("/proc/self/maps") as f:
        for line in f:
            if line.rstrip().endswith("[stack]"):
                low, high = line.split()[0].split("-")
                return int(high, 16) - int(low, 16)
    return 0


def ends(path):
    """Drives PATH to its limit in this process and says how it ended, at once: a crash while
    cleaning up after the guard fired (deallocating a deep chain) is then told apart."""
    run, expected = PATHS[path]
    try:
        run(None, lambda: None)
    except Exception as exc:        # expected, or a guard of another kind: said, not a crash
        print("raised %s%s, stack %d" % (type(exc).__name__, "" if isinstance(exc, expected) else " (unexpected)",
                                          stack_mapped()), flush=True)
        return 0
    print("completed", flush=True)
    return 0


def child(python, mode, path, stack):
    """Runs one mode for one path in a child process with the given stack: (status, words)."""
    def limit():
        resource.setrlimit(resource.RLIMIT_STACK, (stack, stack))
    env = dict(os.environ)
    here = os.path.dirname(os.path.abspath(python))
    if any(name.startswith("libpython") and ".so" in name for name in os.listdir(here)):
        env["LD_LIBRARY_PATH"] = here        # a shared build runs on its own library
    try:
        proc = subprocess.run([python, os.path.abspath(__file__), mode, path], preexec_fn=limit,
                              stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True,
                              timeout=TIMEOUT, env=env)
    except subprocess.TimeoutExpired:
        return 1, "did not end within %d s" % TIMEOUT
    words = proc.stdout.strip().splitlines()
    return proc.returncode, words[-1] if words else ""


def measure(python, path):
    """One path on one interpreter: its stack per level, how it ends within BUDGET, and (when
    it crashes there) whether CPython guards it at all."""
    status, words = child(python, "--measure", path, LARGE)
    try:
        level = None if words == "none" else float(words)
    except ValueError:
        level = None
    status, words = child(python, "--budget", path, BUDGET)
    result = {"per_level": level, "signal": -status if status < 0 else 0, "ended": words,
              "ok": status == 0}
    if status < 0 and not words.startswith("raised"):
        result["guarded"] = guarded(python, path, level)
    return result


def guarded(python, path, level):
    """Whether CPython guards PATH: with a large stack a guard fires, and within GUARD_LEVELS
    levels (a path whose C recursion runs deeper than any limit before the error has no guard
    on that part, such as generator.throw through a yield-from chain)."""
    status, words = child(python, "--guarded", path, LARGE)
    if status != 0 or not words.startswith("raised"):
        return False
    used = int(words.rsplit(" ", 1)[1])
    return not level or used / level <= GUARD_LEVELS


def fmt(level):
    return "-" if level is None else "%d" % round(level)


def verdict(mine, other):
    """(words, failed) for one path: a path that fails here fails the check unless the plain
    build fails it too, or, with no plain build to ask, CPython has no guard on it (none fired
    at a large stack, or the crash came after the guard fired, in cleaning up)."""
    if mine["ok"]:
        return "ok", False
    said = "killed by signal %d" % mine["signal"] if mine["signal"] else mine["ended"]
    if other is not None:
        if not other["ok"]:
            return "%s, plain too: CPython's own limit" % said, False
        return said, True
    if mine["signal"] and mine["ended"].startswith("raised"):
        return "%s after it %s: CPython's own limit (cleanup has no guard)" % (said, mine["ended"]), False
    if mine["signal"] and not mine.get("guarded"):
        return "%s: CPython's own limit (no guard)" % said, False
    return said, True


def report_line(path, mine, other):
    words, failed = verdict(mine, other)
    both = "%s bytes/level" % fmt(mine["per_level"])
    if other is not None:
        both += ", plain %s" % fmt(other["per_level"])
    return "stack_budget: %-30s %-28s %s" % (path, both, words), failed


def main(argv):
    if len(argv) == 3 and argv[1] in ("--measure", "--budget", "--guarded"):
        if argv[2] not in PATHS:
            print("stack_budget: no path %r" % argv[2])
            return 2
        if argv[1] == "--measure":
            sys.setrecursionlimit(PY_LIMIT)
            level = per_level(argv[2])
            print("none" if level is None else level)
            return 0
        if RAISE_PY_LIMIT:
            sys.setrecursionlimit(PY_LIMIT)
        return ends(argv[2])
    options = dict(arg[2:].split("=", 1) for arg in argv[1:] if arg.startswith("--") and "=" in arg)
    unknown = [arg for arg in argv[1:] if not arg.startswith(("--json=", "--plain=", "--paths=", "--budget="))]
    paths = options["paths"].split(",") if "paths" in options else list(PATHS)
    unknown += ["path %r" % path for path in paths if path not in PATHS]
    if unknown or not options.get("budget", "1").isdigit():
        print("stack_budget: not understood: %s" % ", ".join(unknown or ["--budget=" + options["budget"]]))
        print("usage: stack_budget.py [--json=FILE] [--plain=PYTHON] [--paths=P1,P2] [--budget=BYTES]")
        return 2
    global BUDGET
    BUDGET = int(options.get("budget", BUDGET))
    results, plain, failed = {}, {}, []
    for path in paths:
        results[path] = measure(sys.executable, path)
        if "plain" in options:
            plain[path] = measure(options["plain"], path)
        line, bad = report_line(path, results[path], plain.get(path))
        print(line, flush=True)
        if bad:
            failed.append(path)
    if "json" in options:
        with open(options["json"], "w") as f:
            json.dump({"python": sys.version.split()[0], "budget": BUDGET,
                       "optimized": results, "plain": plain or None}, f, indent=1, sort_keys=True)
    excused = sum(1 for path in paths if not results[path]["ok"]) - len(failed)
    print("stack_budget: %d of %d paths within %s of stack%s" % (
        len(paths) - len(failed) - excused, len(paths), "%d MB" % (BUDGET >> 20) if BUDGET >= 1 << 20 else "%d KB" % (BUDGET >> 10),
        ", %d more crash as CPython's own limit" % excused if excused else ""))
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
