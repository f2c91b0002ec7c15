"""The interpreter under check is the configuration that was asked for, running its own code:
a free-threaded build (--disable-gil) runs without the GIL, a GIL build with it, and a shared
build (--enable-shared) runs on the libpython of its own build (a process that maps none is
not shared, whatever sysconfig says), never on a system copy with the same soname (which the dynamic loader picks silently when no rpath or LD_LIBRARY_PATH names
the build's).  Run by profopt's verify stage and BOLT's check on the final interpreter.

What was asked for comes from PROFOPT_EXPECT, words "shared=yes|no free-threaded=yes|no
libdir=DIR" (Makefile.pre.in sets it); a word left out is not checked.  Without PROFOPT_EXPECT
the check says what the interpreter is and checks only that a shared build's library lies in
the executable's directory or its configured LIBDIR.  Exits 0 when all agree, 1 naming each
disagreement as asked/actual."""
import os
import sys
import sysconfig


def expectations(text):
    wanted = {}
    for word in text.split():
        key, sep, value = word.partition("=")
        if not sep or key not in ("shared", "free-threaded", "libdir") or not value:
            sys.exit("build_config: PROFOPT_EXPECT word %r is not shared=, free-threaded= or libdir=" % word)
        if key != "libdir" and value not in ("yes", "no"):
            sys.exit("build_config: PROFOPT_EXPECT %s=%s: yes or no" % (key, value))
        wanted[key] = value
    return wanted


def mapped_libpython():
    """The real paths of the libpython files this process has mapped (Linux's /proc)."""
    found = set()
    try:
        with open("/proc/self/maps") as maps:
            for line in maps:
                fields = line.split(None, 5)
                if len(fields) == 6 and os.path.basename(fields[5].strip()).startswith("libpython"):
                    found.add(os.path.realpath(fields[5].strip()))
    except OSError:
        return None
    return sorted(found)


def main():
    wanted = expectations(os.environ.get("PROFOPT_EXPECT", ""))
    # Shared is what the process runs on, not what sysconfig says: Debian's python3 says shared
    # (it ships the library too) and has the interpreter linked into its executable.
    libs = mapped_libpython()
    if libs is None:
        shared = "yes" if sysconfig.get_config_var("Py_ENABLE_SHARED") else "no"
    else:
        shared = "yes" if libs else "no"
    free = "yes" if sysconfig.get_config_var("Py_GIL_DISABLED") else "no"
    gil_on = getattr(sys, "_is_gil_enabled", lambda: True)()
    wrong = []
    for key, actual in (("shared", shared), ("free-threaded", free)):
        if key in wanted and wanted[key] != actual:
            wrong.append("%s: asked %s, built %s" % (key, wanted[key], actual))
    if free == "yes" and gil_on:
        wrong.append("free-threaded build runs with the GIL on (PYTHON_GIL, or an extension that re-enabled it)")
    if shared == "yes":
        here = os.path.dirname(os.path.realpath(sys.executable))
        dirs = [wanted["libdir"]] if "libdir" in wanted else [here, sysconfig.get_config_var("LIBDIR") or here]
        dirs = [os.path.realpath(d) for d in dirs]
        if libs is None:
            wrong.append("shared: /proc/self/maps unreadable, the library in use is unknown")
        for lib in libs or []:
            if os.path.dirname(lib) not in dirs:
                wrong.append("shared: runs on %s, not on the library in %s" % (lib, " or ".join(dirs)))
    print("build_config: shared=%s free-threaded=%s gil=%s%s" % (
        shared, free, "on" if gil_on else "off", "".join(" library=" + lib for lib in libs or [])))
    for line in wrong:
        print("build_config: " + line, file=sys.stderr)
    return 1 if wrong else 0


if __name__ == "__main__":
    sys.exit(main())
