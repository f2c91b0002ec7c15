"""Shared helpers of profopt's PGO training workload (the tr_*.py tasks next to this file).

Each task is run as `python Tools/train/tr_NAME.py [SCALE]`, so this directory is on sys.path
and the tasks import this module for what they all need: the SCALE argument, self-checks that
stop the task with a message and a non-zero exit status, the final "tr_NAME: ok <checksum>"
line, and (for tasks that use the file system) a scratch directory with a fixed name that is
removed at the end, also on error.  Standard library only.
"""
import hashlib
import importlib
import math
import os
import shutil
import sys
from contextlib import contextmanager


class CheckFailed(SystemExit):
    """A self-check failed.  A SystemExit, so that no `except Exception` in a task swallows it
    and the interpreter exits with status 1 after printing the message, without a traceback."""


def scale_argument(argv=None):
    """The optional SCALE argument (a positive float, default 1.0) that multiplies the amount
    of work of a task.  A bad argument exits with status 2 and a usage line."""
    args = sys.argv[1:] if argv is None else list(argv)
    prog = os.path.basename(sys.argv[0]) if sys.argv and sys.argv[0] else "tr_*.py"
    if not args:
        return 1.0
    try:
        if len(args) > 1:
            raise ValueError
        scale = float(args[0])
        if not (math.isfinite(scale) and scale > 0):
            raise ValueError
    except ValueError:
        sys.stderr.write("usage: %s [SCALE]   (SCALE: a positive number, default 1.0)\n" % prog)
        raise SystemExit(2)
    return scale


def reps(count, scale):
    """`count` scaled by `scale`, rounded, and at least 1: a loop count."""
    return max(1, int(round(count * scale)))


def check(condition, what):
    """Stops the task with "check failed: WHAT" unless `condition` is true."""
    if not condition:
        raise CheckFailed("%s: check failed: %s" % (_task_name(), what))


def check_equal(got, want, what):
    """Stops the task unless `got == want`, showing both values."""
    if got != want:
        raise CheckFailed("%s: check failed: %s: got %.200r, expected %.200r" % (_task_name(), what, got, want))


def checksum(value):
    """A short deterministic digest of `value` (its repr): 16 hex digits of SHA-256.  Callers pass
    only values whose repr is stable (ints, strs, rounded floats, sorted containers)."""
    return hashlib.sha256(repr(value).encode("utf-8", "backslashreplace")).hexdigest()[:16]


def finish(name, results):
    """Prints the task's last line, "NAME: ok CHECKSUM", and returns the exit status 0."""
    print("%s: ok %s" % (name, checksum(results)))
    sys.stdout.flush()
    return 0


def optional_module(name):
    """The module `name`, or None when this CPython was built without it (sqlite3, bz2, lzma,
    zlib need their C libraries).  A task skips that part of its work: its checksum then says
    so, and differs from a full build's."""
    try:
        return importlib.import_module(name)
    except ImportError:
        return None


@contextmanager
def scratch_directory(tag):
    """A fresh directory named train-scratch-TAG in the current directory (in $TMPDIR or /tmp if
    the current directory is not writable), removed when the block ends, also on error.  The
    name is fixed so that two runs do the same work; a leftover from a killed run is removed
    first.  Two runs of the same task must not share a current directory at the same time."""
    base = os.getcwd()
    if not os.access(base, os.W_OK | os.X_OK):
        base = os.environ.get("TMPDIR") or "/tmp"
    path = os.path.join(base, "train-scratch-" + tag)
    if os.path.lexists(path):
        _remove(path)
    os.mkdir(path)
    try:
        yield path
    finally:
        _remove(path)


def _remove(path):
    if os.path.isdir(path) and not os.path.islink(path):
        shutil.rmtree(path)
    else:
        os.remove(path)


def _task_name():
    main = sys.modules.get("__main__")
    path = getattr(main, "__file__", None) or (sys.argv[0] if sys.argv else "")
    name = os.path.splitext(os.path.basename(path))[0]
    return name or "train"
