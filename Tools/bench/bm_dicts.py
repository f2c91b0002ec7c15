"""Dictionaries: insert, lookup, update, iteration, get/setdefault, string and int keys."""

GROUP = "python"

WORDS = ["w%d" % i for i in range(500)]


def bench():
    d = {}
    for rep in range(6):
        for i, w in enumerate(WORDS):
            d[w] = d.get(w, 0) + i
            d.setdefault(i, []).append(rep)
    total = 0
    for k, v in d.items():
        if isinstance(v, int):
            total += v
        else:
            total += len(v)
    merged = dict(d)
    merged.update({w: 1 for w in WORDS[:100]})
    for w in WORDS:
        if w in merged:
            del merged[w]
    return total + len(merged)
