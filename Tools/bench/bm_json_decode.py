"""JSON through the C accelerators: loads of a large document, compact dumps of it."""
import json

GROUP = "c-modules"

BLOB = json.dumps([{"sensor": "s-%04d" % s, "readings": [s * 0.5 + t for t in range(20)],
                    "ok": s % 3 != 0, "where": {"lat": s / 7.0, "lon": -s / 3.0, "site": "h\u00f6he %d" % s}}
                   for s in range(1200)])


def bench():
    rows = json.loads(BLOB)
    again = json.dumps(rows, separators=(",", ":"))
    return len(rows) + len(again)
