"""Imitates a data-export service: a large nested catalogue (warehouses, shelves, parcels with
Unicode labels, escapes, floats, nulls and deep nesting) goes out and comes back through json
(with the C encoder and scanner: compact separators, sort_keys, ensure_ascii on and off,
object_pairs_hook and parse_float on the way in), through pickle with the C Pickler and
Unpickler (protocols 0 to 5, memoized shared objects, instances with __reduce__ and
__getstate__/__setstate__, bytearrays, out-of-band buffers of protocol 5, Pickler/Unpickler
objects over a stream), and through csv (dialects, quoting, DictWriter/DictReader).
Interpreter paths: _json's encoder and scanner, _pickle's save/load of every type, the csv
module's reader and writer, dict/list building and equality of large structures.
"""
import csv
import io
import json
import pickle
import sys
from collections import OrderedDict
from random import Random

import trainlib

NAME = "tr_records"

LABELS = ["crate", "Kiste", "caisse", "\u7bb1", "\u044f\u0449\u0438\u043a", "\u03ba\u03bf\u03c5\u03c4\u03af",
          "tab\there", "quote\"d", "back\\slash", "line\nbreak", "emoji \U0001F4E6"]


class Parcel:
    """Pickled through __reduce__: rebuilt by calling the class."""

    def __init__(self, code, grams, fragile):
        self.code, self.grams, self.fragile = code, grams, fragile

    def __reduce__(self):
        return (Parcel, (self.code, self.grams, self.fragile))

    def __eq__(self, other):
        return isinstance(other, Parcel) and (self.code, self.grams, self.fragile) == (other.code, other.grams, other.fragile)


class Shelf:
    """Pickled through __getstate__/__setstate__, with a cached field left out."""

    def __init__(self, name, parcels):
        self.name, self.parcels, self.cache = name, parcels, {"weight": sum(p.grams for p in parcels)}

    def __getstate__(self):
        return {"name": self.name, "parcels": self.parcels}

    def __setstate__(self, state):
        self.__dict__.update(state)
        self.cache = {"weight": sum(p.grams for p in self.parcels)}


def catalogue(rng, depots, shelves, parcels):
    doc = {"schema": 7, "generated": "2024-01-01T00:00:00Z", "depots": []}
    for d in range(depots):
        depot = {"id": "D%03d" % d, "open": d % 4 != 0, "manager": None if d % 5 == 0 else "mgr-%d" % d,
                 "geo": [round(rng.uniform(-90, 90), 6), round(rng.uniform(-180, 180), 6)], "shelves": {}}
        for s in range(shelves):
            depot["shelves"]["S%02d" % s] = [
                {"code": rng.getrandbits(48), "label": rng.choice(LABELS) + " %d" % p,
                 "grams": rng.randint(1, 90000), "price": round(rng.random() * 1000, 2),
                 "dims": {"w": rng.randint(1, 99), "h": rng.randint(1, 99), "d": rng.randint(1, 99)},
                 "flags": [rng.random() < 0.1, rng.random() < 0.5], "notes": None}
                for p in range(parcels)]
        doc["depots"].append(depot)
    doc["nested"] = nest = {}
    for level in range(40):
        nest["level"] = level
        nest = nest.setdefault("inner", {})
    return doc


def json_trips(doc):
    sizes = []
    compact = json.dumps(doc, separators=(",", ":"))
    trainlib.check_equal(json.loads(compact), doc, "compact JSON round trip")
    sorted_text = json.dumps(doc, sort_keys=True)
    trainlib.check_equal(json.loads(sorted_text), doc, "sorted JSON round trip")
    unicode_text = json.dumps(doc, ensure_ascii=False)
    trainlib.check(len(unicode_text) < len(sorted_text), "non-ASCII kept is shorter")
    ordered = json.loads(unicode_text, object_pairs_hook=OrderedDict)
    trainlib.check_equal(list(ordered["depots"][0]), list(doc["depots"][0]), "key order kept")
    exact = json.loads(compact, parse_float=str)
    trainlib.check(isinstance(exact["depots"][0]["geo"][0], str), "parse_float hook")
    as_bytes = json.loads(unicode_text.encode("utf-8"))
    trainlib.check_equal(as_bytes["schema"], 7, "JSON from UTF-8 bytes")
    decoder = json.JSONDecoder()
    stream = compact + " " + compact
    first, end = decoder.raw_decode(stream)
    second, _ = decoder.raw_decode(stream, end + 1)
    trainlib.check_equal(first, second, "two documents in one stream")
    for text in (compact, sorted_text, unicode_text):
        sizes.append(len(text))
    return sizes


def pickle_trips(rng, doc):
    shelves = [Shelf("shelf-%d" % i, [Parcel(rng.getrandbits(40), rng.randint(1, 5000), i % 3 == 0) for _ in range(60)])
               for i in range(30)]
    shared = [shelves[0], shelves[0], shelves[1]]
    payload = {"doc": doc, "shelves": shelves, "shared": shared, "blob": bytearray(rng.randbytes(4096)),
               "frozen": frozenset(range(200)), "pairs": [(i, str(i), float(i)) for i in range(500)],
               "big": 7 ** 400, "text": "\u00e9\u4e2d\U0001F4E6" * 50}
    lengths = []
    for proto in range(pickle.HIGHEST_PROTOCOL + 1):
        data = pickle.dumps(payload, protocol=proto)
        back = pickle.loads(data)
        trainlib.check_equal(back["doc"], doc, "document through pickle protocol %d" % proto)
        trainlib.check(back["shared"][0] is back["shared"][1], "memo keeps shared objects (protocol %d)" % proto)
        trainlib.check_equal(back["shelves"][3].cache, shelves[3].cache, "__setstate__ rebuilt the cache")
        trainlib.check_equal(back["shelves"][5].parcels, shelves[5].parcels, "__reduce__ parcels")
        lengths.append(len(back["pairs"]) + len(back["blob"]))
    buffers = []
    data = pickle.dumps(pickle.PickleBuffer(payload["blob"]), protocol=5, buffer_callback=buffers.append)
    trainlib.check_equal(bytes(pickle.loads(data, buffers=buffers)), bytes(payload["blob"]), "out-of-band buffer")
    sink = io.BytesIO()
    writer = pickle.Pickler(sink, protocol=4)
    for shelf in shelves:
        writer.dump(shelf)
    sink.seek(0)
    reader = pickle.Unpickler(sink)
    names = [reader.load().name for _ in shelves]
    trainlib.check_equal(names, [s.name for s in shelves], "one stream of many pickles")
    return lengths


def csv_trips(doc):
    rows = [{"depot": d["id"], "shelf": s, "code": p["code"], "label": p["label"], "grams": p["grams"],
             "price": p["price"]} for d in doc["depots"] for s, ps in sorted(d["shelves"].items()) for p in ps]
    out = io.StringIO()
    writer = csv.DictWriter(out, fieldnames=list(rows[0]), quoting=csv.QUOTE_NONNUMERIC)
    writer.writeheader()
    writer.writerows(rows)
    back = list(csv.DictReader(io.StringIO(out.getvalue()), quoting=csv.QUOTE_NONNUMERIC))
    trainlib.check_equal(len(back), len(rows), "CSV rows")
    trainlib.check_equal(back[-1]["label"], rows[-1]["label"], "CSV keeps quotes, tabs and newlines")
    trainlib.check_equal(int(back[7]["grams"]), rows[7]["grams"], "CSV numbers")
    tabbed = io.StringIO()
    csv.writer(tabbed, dialect="excel-tab", lineterminator="\n").writerows([r["depot"], r["label"], r["grams"]] for r in rows)
    parsed = list(csv.reader(io.StringIO(tabbed.getvalue()), dialect="excel-tab"))
    trainlib.check_equal(len(parsed), len(rows), "tab-separated rows")
    return len(out.getvalue()), sum(int(r[2]) for r in parsed)


def main(scale):
    rng = Random(8086)
    results = []
    for _ in range(trainlib.reps(5, scale)):
        doc = catalogue(rng, 12, 8, 25)
        results += [json_trips(doc), pickle_trips(rng, doc), csv_trips(doc)]
    return trainlib.finish(NAME, results)


if __name__ == "__main__":
    sys.exit(main(trainlib.scale_argument()))
