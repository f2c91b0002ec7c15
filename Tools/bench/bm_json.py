"""JSON: dumps and loads of a nested document, with and without indentation."""
import json

GROUP = "python"

DOC = {
    "users": [
        {"id": i, "name": "user %d" % i, "score": i * 0.25, "tags": ["a", "b", str(i)],
         "active": i % 2 == 0, "parent": None}
        for i in range(150)
    ],
    "meta": {"version": 3, "text": "caf\u00e9 \u2603 \"quoted\"\n"},
}


def bench():
    total = 0
    for _ in range(4):
        s = json.dumps(DOC)
        total += len(json.loads(s)["users"])
        s = json.dumps(DOC, indent=2, sort_keys=True)
        total += len(s)
    return total
