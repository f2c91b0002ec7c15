"""Regular expressions: compile once, search, findall, sub with groups, split."""
import re

GROUP = "python"

LINE = re.compile(r"^(\w+)\s+(\d+)\s+([\w.]+@[\w.]+)$")
NUM = re.compile(r"\d+")
WORD = re.compile(r"\b[a-z]{4,}\b")
LINES = ["user%d %d user%d@example.org" % (i, i * 37 % 1000, i) for i in range(400)]
LINES += ["not a match %d" % i for i in range(100)]
TEXT = " ".join("alpha beta gamma delta %d epsilon" % i for i in range(300))


def bench():
    total = 0
    for line in LINES:
        m = LINE.match(line)
        if m:
            total += int(m.group(2)) + len(m.group(3))
    total += len(NUM.findall(TEXT))
    total += len(WORD.sub(lambda m: m.group(0)[::-1], TEXT))
    total += len(re.split(r"\s+", TEXT))
    total += len(NUM.sub(r"<\g<0>>", TEXT))
    return total
