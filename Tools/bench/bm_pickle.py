"""pickle: dumps and loads of objects, containers and class instances, several protocols."""
import pickle

GROUP = "python"


class Record:
    def __init__(self, i):
        self.i = i
        self.name = "rec%d" % i
        self.values = [i, i * 2.5, (i, str(i))]


DATA = {"records": [Record(i) for i in range(300)], "table": {i: str(i) for i in range(300)},
        "set": set(range(100)), "bytes": bytes(range(256))}


def bench():
    total = 0
    for proto in (2, 4, pickle.HIGHEST_PROTOCOL):
        for _ in range(3):
            s = pickle.dumps(DATA, protocol=proto)
            back = pickle.loads(s)
            total += len(s) + len(back["records"])
    return total
