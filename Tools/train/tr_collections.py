"""Imitates the bookkeeping of a warehouse and order-routing service, the kind of code where
most real Python time goes into containers: an LRU cache on OrderedDict (move_to_end,
popitem), sliding windows and round-robin queues on deque (rotate, maxlen), indexes in
defaultdict, records as namedtuples (_replace, _asdict), layered settings in ChainMap, a
priority scheduler and top-k queries with heapq, compact numeric columns in array, and heavy
plain dict/set/list work: update/get/setdefault/pop, items() iteration, set algebra, slicing,
slice assignment, in-place operators.  Interpreter paths: the dict, set, list and tuple
implementations (lookups, resizes, iteration), the C types of the collections module, subscript
and slice opcodes, comparisons of tuples.
"""
import heapq
import math
import sys
from array import array
from collections import ChainMap, OrderedDict, defaultdict, deque, namedtuple
from random import Random

import trainlib

NAME = "tr_collections"

Parcel = namedtuple("Parcel", "pid sku qty zone priority")
Sku = namedtuple("Sku", ["code", "weight", "tags"], defaults=((),))


class LRUCache:
    def __init__(self, capacity):
        self.capacity = capacity
        self.data = OrderedDict()
        self.hits = self.misses = 0

    def fetch(self, key, compute):
        try:
            value = self.data[key]
        except KeyError:
            self.misses += 1
            value = self.data[key] = compute(key)
            if len(self.data) > self.capacity:
                self.data.popitem(last=False)
        else:
            self.hits += 1
            self.data.move_to_end(key)
        return value


def make_catalogue(rng, n):
    tags = ["fragile", "cold", "bulky", "hazmat", "gift"]
    return {("SKU%05d" % i): Sku("SKU%05d" % i, rng.randrange(1, 5000) / 100,
                                 tuple(sorted(rng.sample(tags, rng.randrange(0, 3))))) for i in range(n)}


def make_parcels(rng, skus, n):
    zones = ["A1", "A2", "B1", "B2", "C1", "C9"]
    # drawn in bulk: the task is about containers, not about the random module
    columns = zip(rng.choices(skus, k=n), rng.choices(range(1, 10), k=n), rng.choices(zones, k=n),
                  rng.choices(range(5), weights=[5, 4, 3, 2, 1], k=n))
    return [Parcel(i, *fields) for i, fields in enumerate(columns)]


def index_workout(catalogue, parcels):
    by_zone = defaultdict(list)
    qty_by_sku = defaultdict(int)
    tags_by_zone = defaultdict(set)
    for p in parcels:
        by_zone[p.zone].append(p.pid)
        qty_by_sku[p.sku] += p.qty
        tags_by_zone[p.zone].update(catalogue[p.sku].tags)
    weights = {}
    for sku, qty in qty_by_sku.items():
        weights[sku] = round(catalogue[sku].weight * qty, 2)
    heavy = {sku for sku, w in weights.items() if w > 500}
    fragile = {code for code, s in catalogue.items() if "fragile" in s.tags}
    ordered = set(qty_by_sku)
    unsold = set(catalogue) - ordered
    trainlib.check_equal(len(unsold) + len(ordered), len(catalogue), "set difference")
    trainlib.check(heavy <= ordered and not (heavy & unsold), "subset relations")
    careful = heavy & fragile
    either = heavy | fragile
    odd = heavy ^ fragile
    trainlib.check_equal(len(either), len(careful) + len(odd), "inclusion-exclusion")
    summary = {}
    for zone, pids in sorted(by_zone.items()):
        summary[zone] = (len(pids), sorted(tags_by_zone[zone]))
    settings = ChainMap({"zone": "B1"}, {"zone": "A1", "carrier": "post", "insure": False},
                        {"carrier": "courier", "insure": True, "retries": 3})
    child = settings.new_child({"retries": 5})
    trainlib.check_equal((child["zone"], child["carrier"], child["insure"], child["retries"]),
                         ("B1", "post", False, 5), "ChainMap lookups")
    trainlib.check_equal(sorted(child), ["carrier", "insure", "retries", "zone"], "ChainMap keys")
    return summary, len(careful), len(odd), round(math.fsum(weights.values()), 2), sorted(weights.items())[:5]


def cache_workout(rng, catalogue, n):
    codes = sorted(catalogue)
    cache = LRUCache(64)
    # a skewed access pattern, as real caches see: a small hot set and a long tail
    hot = codes[:40]
    total = 0.0
    for key_hot, key_any in zip(rng.choices(hot, k=n), rng.choices(codes, k=n)):
        key = key_hot if rng.random() < 0.8 else key_any
        total += cache.fetch(key, lambda k: catalogue[k].weight * 2)
    trainlib.check(len(cache.data) <= 64, "LRU capacity")
    trainlib.check_equal(cache.hits + cache.misses, n, "LRU accounting")
    return cache.hits, cache.misses, round(total, 2), list(cache.data)[-3:]


def queue_workout(rng, parcels):
    window = deque(maxlen=50)
    averages = []
    for p in parcels:
        window.append(p.qty)
        if len(window) == window.maxlen:
            averages.append(sum(window) / 50)
    lanes = deque(["lane%d" % i for i in range(7)])
    assignment = {}
    for p in parcels[:2000]:
        assignment[p.pid] = lanes[0]
        lanes.rotate(-1 if p.priority else 2)
    backlog = deque()
    shipped = []
    for p in parcels:
        if p.priority >= 3:
            backlog.appendleft(p)
        else:
            backlog.append(p)
        if len(backlog) > 30:
            shipped.append(backlog.popleft().pid)
            backlog.pop()
    trainlib.check(all(isinstance(x, int) for x in shipped[:10]), "deque pops")
    # heapq scheduler: (priority, sequence) keeps FIFO order within a priority
    heap = []
    for seq, p in enumerate(parcels):
        heapq.heappush(heap, (-p.priority, seq, p.pid))
    first = [heapq.heappop(heap)[2] for _ in range(min(100, len(heap)))]
    biggest = heapq.nlargest(5, parcels, key=lambda p: (p.qty, -p.pid))
    smallest = heapq.nsmallest(5, (p.pid * 7919 % 1000 for p in parcels))
    runs = [sorted(p.pid % 97 for p in parcels[k::4]) for k in range(4)]
    merged = list(heapq.merge(*runs))
    trainlib.check(merged == sorted(merged), "heapq.merge")
    updated = [p._replace(qty=p.qty * 2) for p in parcels[:100]]
    as_dicts = [p._asdict() for p in updated[:3]]
    return (round(math.fsum(averages), 3), sorted(assignment.values())[:3], len(shipped), first[:10],
            [p.pid for p in biggest], smallest, merged[-5:], as_dicts)


def column_workout(rng, n):
    prices = array("d", (rng.randrange(100, 100000) / 100 for _ in range(n)))
    counts = array("i", (rng.randrange(0, 50) for _ in range(n)))
    revenue = array("d", (p * c for p, c in zip(prices, counts)))
    trainlib.check_equal(len(revenue), n, "array length")
    counts.extend(array("i", [0] * 10))
    counts.reverse()
    del counts[:10]
    trainlib.check_equal(counts.tolist()[::-1], [c for c in counts[::-1]], "array slicing")
    raw = prices.tobytes()
    back = array("d")
    back.frombytes(raw)
    trainlib.check(back == prices, "array bytes round trip")
    return round(math.fsum(revenue), 2), counts.count(0), max(counts), prices.itemsize


def list_dict_workout(rng, n):
    data = list(range(n))
    data[10:20] = [-1] * 5
    del data[::7]
    data[:0] = ["head"]
    data += [n, n + 1]
    data *= 2
    block = data[100:200]
    block.reverse()
    data[100:200] = block
    data.insert(5, "five")
    data.remove("five")
    ints = [x for x in data if isinstance(x, int)]
    ints.sort(key=lambda x: (x % 10, -x))
    stock = {}
    for i in range(n):
        key = "item%d" % (i % 700)
        stock[key] = stock.get(key, 0) + i % 13
        if i % 9 == 0:
            stock.setdefault("seen%d" % (i % 50), []).append(i)
    removed = [stock.pop("item%d" % k, None) for k in range(0, 700, 3)]
    extra = {"item%d" % k: -k for k in range(690, 720)}
    stock.update(extra)
    stock |= {"bonus": 1}
    positive = {k: v for k, v in stock.items() if isinstance(v, int) and v > 0}
    inverted = defaultdict(list)
    for k, v in sorted(positive.items()):
        inverted[v].append(k)
    keys_view = stock.keys() & {"bonus", "item1", "missing"}
    return (len(data), data[:6], ints[:8], len(stock), sum(v for v in removed if v), len(inverted),
            sorted(keys_view), sorted(positive.items())[-3:])


def main(scale):
    rng = Random(1234)
    results = []
    catalogue = make_catalogue(rng, 3000)
    skus = sorted(catalogue)
    for _ in range(trainlib.reps(76, scale)):
        parcels = make_parcels(rng, skus, 2500)
        results.append(index_workout(catalogue, parcels))
        results.append(cache_workout(rng, catalogue, 5000))
        results.append(queue_workout(rng, parcels))
        results.append(column_workout(rng, 2000))
        results.append(list_dict_workout(rng, 3000))
    return trainlib.finish(NAME, results)


if __name__ == "__main__":
    sys.exit(main(trainlib.scale_argument()))
