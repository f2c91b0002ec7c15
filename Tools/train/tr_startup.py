"""Imitates what short scripts and command-line tools spend their time on: starting up and
importing.  Each round imports some seventy standard-library modules from scratch, the way a
fresh interpreter would (path finders rebuilt, modules found on sys.path, read from their
cached .pyc files and unmarshalled, or compiled from source when there is no cache, then
executed), and then forgets the pure-Python modules it loaded so that the next round imports
them again; extension modules stay loaded (most cannot be initialized twice).  It also
compiles module sources itself (tokenizer, parser, compiler, code-object marshalling),
imports frozen modules through the frozen importer, and uses importlib's spec and loader API.
Interpreter paths: the import machinery (importlib._bootstrap and _bootstrap_external, the
C import code, FileFinder and the path cache), marshal loads and dumps, the compiler, and the
module-level code of many modules (class and function creation, decorators, enum and
dataclass construction, re.compile at import time).
"""
import importlib
import importlib.machinery
import importlib.util
import marshal
import sys

import trainlib

NAME = "tr_startup"

# Present and free of deprecation warnings on CPython 3.10 to 3.14; none of them starts a
# thread or touches the network when imported.
WANTED = [
    "argparse", "ast", "base64", "bisect", "calendar", "colorsys", "configparser", "contextvars", "copy",
    "csv", "dataclasses", "datetime", "decimal", "difflib", "dis", "email.message", "email.parser",
    "email.utils", "email.headerregistry", "fnmatch", "fractions", "getopt", "gettext", "glob", "graphlib",
    "hashlib", "heapq", "hmac", "html", "html.parser", "http.cookies", "inspect", "ipaddress", "json",
    "keyword", "linecache", "locale", "logging", "mimetypes", "numbers", "optparse", "pathlib", "pickle",
    "pickletools", "plistlib", "pprint", "queue", "quopri", "random", "reprlib", "runpy", "sched", "shlex",
    "shutil", "statistics", "string", "stringprep", "struct", "textwrap", "tokenize", "traceback", "typing",
    "urllib.parse", "wave", "xml.dom.minidom", "xml.etree.ElementTree", "zipfile", "zoneinfo", "pydoc",
]
# A few names each module must define once imported: the import really ran its code.
EXPECTED = {"argparse": "ArgumentParser", "dataclasses": "dataclass", "decimal": "Decimal", "json": "JSONDecoder",
            "logging": "getLogger", "typing": "NamedTuple", "xml.etree.ElementTree": "fromstring",
            "zipfile": "ZipFile", "inspect": "signature", "email.message": "EmailMessage", "pydoc": "render_doc"}
COMPILED = ["argparse", "ast", "calendar", "configparser", "dataclasses", "difflib", "inspect", "json.decoder",
            "optparse", "pprint", "shlex", "string", "textwrap", "tokenize", "typing"]
FROZEN = ["zipimport", "runpy", "_collections_abc", "posixpath", "genericpath", "stat"]


def pure_python(module):
    return (getattr(module, "__file__", None) or "").endswith(".py")


def import_round(wanted):
    """Imports `wanted` from scratch; returns the names that were checked.  Every pure-Python
    module loaded on the way is forgotten again at the end."""
    before = dict(sys.modules)
    sys.path_importer_cache.clear()
    importlib.invalidate_caches()
    try:
        loaded = [importlib.import_module(name) for name in wanted]
        for name, attr in sorted(EXPECTED.items()):
            trainlib.check(hasattr(sys.modules[name], attr), "%s defines %s after import" % (name, attr))
        trainlib.check(all(m.__name__ == n for m, n in zip(loaded, wanted)), "modules have their names")
        fresh = sorted(n for n in sys.modules if n not in before)
        trainlib.check(len(fresh) >= len(wanted) // 2, "imported from scratch")
        return len(loaded)
    finally:
        for name in [n for n in sys.modules if n not in before]:
            if pure_python(sys.modules[name]):
                del sys.modules[name]


def compile_sources(names):
    """Compiles module sources and round-trips the code objects through marshal."""
    lines = 0
    for name in names:
        spec = importlib.util.find_spec(name)
        trainlib.check(spec is not None and spec.origin.endswith(".py"), "%s has Python source" % name)
        source = spec.loader.get_source(name)
        code = compile(source, spec.origin, "exec", dont_inherit=True)
        again = marshal.loads(marshal.dumps(code))
        trainlib.check_equal(again.co_names, code.co_names, "%s code through marshal" % name)
        namespace = {"__name__": "copy_of_" + name.replace(".", "_")}
        if name in ("string", "textwrap", "shlex"):
            exec(again, namespace)
            trainlib.check("__all__" in namespace, "%s executed from its compiled source" % name)
        lines += source.count("\n")
    return lines > 0


def frozen_modules(names):
    found = 0
    for name in names:
        spec = importlib.machinery.FrozenImporter.find_spec(name)
        if spec is None:  # not frozen on this version: found on the path instead
            spec = importlib.util.find_spec(name)
        module = importlib.util.module_from_spec(spec)
        spec.loader.exec_module(module)
        found += hasattr(module, "__name__")
    trainlib.check_equal(found, len(names), "frozen or path modules executed")
    return found


def loader_api():
    spec = importlib.util.find_spec("textwrap")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    text = module.dedent("    one\n      two\n")
    trainlib.check_equal(text, "one\n  two\n", "dedent from a module loaded by hand")
    cached = importlib.util.cache_from_source(spec.origin)
    trainlib.check(cached.endswith(".pyc"), "cache name of a source file")
    return text, importlib.util.resolve_name(".parser", "email")


def main(scale):
    results = []
    for i in range(trainlib.reps(6, scale)):
        results.append(import_round(WANTED[i % 3:] + WANTED[:i % 3]))
        results.append(compile_sources(COMPILED))
        results.append(frozen_modules(FROZEN))
        results.append(loader_api())
    return trainlib.finish(NAME, results)


if __name__ == "__main__":
    sys.exit(main(trainlib.scale_argument()))
