"""Start-up work: a set of standard modules imported from scratch (their pure-Python modules
are dropped from sys.modules after each call), as a short script's imports would.

The timed imports read compiled bytecode from a cache of this process's own, written by one
untimed call at import time: whether the source tree holds .pyc files (PYTHONDONTWRITEBYTECODE,
a read-only tree, another build's runs) must not change what is measured."""
import atexit
import shutil
import sys
import tempfile

GROUP = "startup"

TO_LOAD = ("argparse", "json", "pathlib", "dataclasses", "typing", "email.mime.text", "http.client",
           "urllib.request", "tempfile", "logging.handlers", "subprocess", "xml.sax.saxutils", "tomllib",
           "uuid", "secrets", "ftplib", "smtplib")


def bench():
    present = set(sys.modules)
    got = 0
    for mod in TO_LOAD:
        try:
            __import__(mod)
            got += 1
        except ImportError:
            pass
    for extra in [k for k in sys.modules if k not in present]:
        if str(getattr(sys.modules[extra], "__file__", "")).endswith(".py"):
            del sys.modules[extra]
    return got


sys.dont_write_bytecode = False
sys.pycache_prefix = tempfile.mkdtemp(prefix="profopt-bench-pyc.")
atexit.register(shutil.rmtree, sys.pycache_prefix, True)
bench()
