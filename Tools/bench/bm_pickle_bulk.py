"""pickle through the C accelerator: a large list of tuples and dicts, highest protocol."""
import pickle

GROUP = "c-modules"

ROWS = [(q, "k%d" % q, q * 1.25, {"a": q, "b": [q, q + 1], "c": None}) for q in range(15000)]
SNAPSHOT = pickle.dumps(ROWS, protocol=pickle.HIGHEST_PROTOCOL)


def bench():
    thawed = pickle.loads(SNAPSHOT)
    out = pickle.dumps(thawed, protocol=pickle.HIGHEST_PROTOCOL)
    return len(thawed) + len(out)
