"""Sorting: lists of ints, strings and tuples; key functions, reverse, stability, sorted/min/max."""
import random

GROUP = "python"

RNG = random.Random(4)
INTS = [RNG.randrange(100000) for _ in range(4000)]
WORDS = ["".join(RNG.choice("abcdefghij") for _ in range(6)) for _ in range(1500)]
ROWS = [(RNG.randrange(10), RNG.random(), w) for w in WORDS]


def bench():
    total = 0
    a = sorted(INTS)
    total += a[0] + a[-1]
    b = sorted(INTS, reverse=True)
    total += b[10]
    w = sorted(WORDS, key=str.lower)
    total += len(w[0])
    r = sorted(ROWS, key=lambda t: (t[0], -t[1]))
    total += r[0][0]
    r.sort(key=lambda t: t[2])
    total += len(min(WORDS)) + len(max(WORDS, key=len))
    c = list(INTS)
    c.sort()
    c.sort()  # already sorted: the fast path
    return total + c[100]
