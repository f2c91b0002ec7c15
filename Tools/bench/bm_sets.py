"""Sets: building, membership, union/intersection/difference, frozensets as keys."""

GROUP = "python"


def bench():
    a = set(range(0, 3000, 2))
    b = set(range(0, 3000, 3))
    total = 0
    for i in range(3000):
        if i in a and i not in b:
            total += 1
    for _ in range(20):
        total += len(a | b) + len(a & b) + len(a - b) + len(a ^ b)
    seen = {}
    for i in range(1500):
        key = frozenset((i % 7, i % 11, i % 13))
        seen[key] = seen.get(key, 0) + 1
    s = set()
    for i in range(3000):
        s.add(i * 7 % 1000)
        s.discard(i % 50)
    return total + len(seen) + len(s)
