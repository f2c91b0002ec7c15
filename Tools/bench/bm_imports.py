"""Start-up work: a set of standard modules imported from scratch (their pure-Python modules
are dropped from sys.modules after each call), as a short script's imports would."""
import sys

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
