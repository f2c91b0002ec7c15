"""Runs one workload of profopt's benchmark suite and prints the elapsed seconds.

usage: run.py WORKLOAD LOOPS     e.g. run.py calls 20
       run.py --list

WORKLOAD is a module bm_WORKLOAD.py next to this file; its bench() function does a fixed
amount of work, and its GROUP = "..." ("python", "c-modules", "startup") names the group
profopt bench reports it in (profopt reads that line from the file).  The module is imported (and whatever it prepares at import time is built)
before the clock starts, so interpreter startup and setup are not measured.  LOOPS calls of
bench() are timed with time.perf_counter(); the elapsed seconds are printed on one line.
LOOPS=0 only imports the workload (profopt bench uses that to subtract startup from
instruction counts).  Only the standard library is used; CPython 3.8 or newer.

PROFOPT_BENCH_PAD=N (bytes) holds a buffer of that size, allocated before the workload is
imported, while the loops run.  It moves the C heap's layout: where malloc finds memory, and
how much work that takes, depends on everything allocated before (the same interpreter,
built in a directory with a longer name, ran the regex workload with 4% more instructions).
profopt bench gives each round another pad, so no interpreter is judged on one layout.

PROFOPT_BENCH_MAPS=FILE: after the loops, a copy of /proc/self/maps is written to FILE (the
files this interpreter maps, which profopt bench drops from the page cache and reads back
at the start of every round: where the cache puts them moves a workload's time by several
percent).
"""
import os
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))


def workloads():
    return sorted(f[3:-3] for f in os.listdir(HERE) if f.startswith("bm_") and f.endswith(".py"))


def main(argv):
    if len(argv) == 2 and argv[1] == "--list":
        print("\n".join(workloads()))
        return 0
    if len(argv) != 3 or not argv[2].isdigit():
        sys.stderr.write("usage: run.py WORKLOAD LOOPS | --list\n")
        return 2
    name, loops = argv[1], int(argv[2])
    if name not in workloads():
        sys.stderr.write("run.py: no workload %r (have: %s)\n" % (name, " ".join(workloads())))
        return 2
    sys.path.insert(0, HERE)
    pad = bytearray(int(os.environ.get("PROFOPT_BENCH_PAD") or 0))  # noqa: F841 (held on purpose)
    module = __import__("bm_" + name)
    bench = module.bench
    clock = time.perf_counter
    t0 = clock()
    for _ in range(loops):
        bench()
    t1 = clock()
    print(repr(t1 - t0))
    maps = os.environ.get("PROFOPT_BENCH_MAPS")
    if maps and os.path.exists("/proc/self/maps"):
        with open("/proc/self/maps") as src, open(maps, "w") as dst:
            dst.write(src.read())
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
