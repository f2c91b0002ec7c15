"""Strings: formatting (f-strings, %, format), join/split, methods, slicing, encode."""

GROUP = "python"


def bench():
    parts = []
    for i in range(2500):
        parts.append(f"{i:05d}:{i * 1.5:.2f}")
        parts.append("%s-%x" % ("item", i))
        parts.append("{0}/{1!r}".format(i, "v"))
    text = ",".join(parts)
    fields = text.split(",")
    total = 0
    for f in fields:
        u = f.upper()
        if u.startswith("ITEM"):
            total += len(u.replace("-", "").lower())
        elif ":" in f:
            a, _, b = f.partition(":")
            total += int(a) + len(b.strip("0"))
        else:
            total += f.find("/") + len(f[::-1])
    total += len(text.encode("utf-8").decode("utf-8"))
    return total
