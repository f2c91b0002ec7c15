"""Imitates a lazy data-processing pipeline (the style of ETL scripts and stream processors):
sensor readings flow through chained generators, yield from delegation, generator-based
coroutines driven with send()/throw()/close(), itertools building blocks (chain, groupby,
product, permutations, combinations, accumulate, islice, tee, zip_longest, starmap, compress,
takewhile/dropwhile, pairwise), map/filter/zip/enumerate, functools.reduce and partial,
closures that keep state, decorators built with functools.wraps, and lambdas as keys.
Interpreter paths: generator frames (creation, resume, suspension, return values through
StopIteration), the iterator protocol in for loops and builtins, closure cells, *args/**kwargs
forwarding in decorators, lambda calls.
"""
import functools
import itertools
import math
import operator
import sys
from random import Random

import trainlib

NAME = "tr_iterators"

STATIONS = ["north", "south", "east", "west", "harbour", "airport", "summit"]


def call_tally(func):
    """A decorator that counts calls per function; the counts are checked at the end."""
    @functools.wraps(func)
    def tallied(*args, **kwargs):
        tallied.calls += 1
        return func(*args, **kwargs)
    tallied.calls = 0
    return tallied


def clamp_to(low, high):
    """A decorator factory: clamps the numeric result of the decorated function."""
    def decorate(func):
        @functools.wraps(func)
        def clamped(*args, **kwargs):
            return max(low, min(high, func(*args, **kwargs)))
        return clamped
    return decorate


def raw_lines(rng, count):
    """The 'file': CSV-ish lines, some of them broken."""
    for i in range(count):
        station = STATIONS[rng.randrange(len(STATIONS))]
        if i % 53 == 7:
            yield "# comment line %d" % i
        elif i % 71 == 3:
            yield "%s,,broken" % station
        else:
            yield "%d,%s,%.2f,%d" % (i * 60, station, rng.gauss(12, 6), rng.randrange(0, 101))


def parsed(lines):
    for line in lines:
        if line.startswith("#"):
            continue
        parts = line.split(",")
        try:
            yield int(parts[0]), parts[1], float(parts[2]), int(parts[3])
        except (ValueError, IndexError):
            continue


@call_tally
def plausible(reading):
    return -40.0 <= reading[2] <= 50.0


@clamp_to(0, 100)
def humidity_index(temp, humidity):
    return humidity + (temp - 20) * 1.5


def moving_average(values, width):
    window = []
    total = 0.0
    for v in values:
        window.append(v)
        total += v
        if len(window) > width:
            total -= window.pop(0)
        yield total / len(window)


def running_stats():
    """A generator-based coroutine: send values, get (count, mean, min, max) back; throw
    ValueError to reset; close() at the end returns the last state."""
    count, total, low, high = 0, 0.0, float("inf"), float("-inf")
    state = None
    while True:
        try:
            value = yield state
        except ValueError:
            count, total, low, high = 0, 0.0, float("inf"), float("-inf")
            state = None
            continue
        except GeneratorExit:
            return
        count += 1
        total += value
        low, high = min(low, value), max(high, value)
        state = (count, total / count, low, high)


def flatten(tree):
    for node in tree:
        if isinstance(node, (list, tuple)):
            yield from flatten(node)
        else:
            yield node


def chunked_with_total(iterable, size):
    """Delegating generator whose return value is collected through yield from."""
    total = 0
    it = iter(iterable)
    while True:
        chunk = list(itertools.islice(it, size))
        if not chunk:
            return total
        total += len(chunk)
        yield chunk


def batches_and_count(iterable, size):
    counted = yield from chunked_with_total(iterable, size)
    yield ("done", counted)


def pipeline_workout(rng, count):
    readings = list(filter(plausible, parsed(raw_lines(rng, count))))
    trainlib.check(plausible.calls >= len(readings), "decorator counted the calls")
    by_station = {}
    for station, group in itertools.groupby(sorted(readings, key=operator.itemgetter(1, 0)),
                                            key=operator.itemgetter(1)):
        temps = [r[2] for r in group]
        by_station[station] = (len(temps), round(max(moving_average(temps, 12)), 6))
    trainlib.check_equal(sum(n for n, _ in by_station.values()), len(readings), "groupby covers every reading")
    stats = running_stats()
    next(stats)
    for _, _, temp, _ in itertools.islice(readings, 50):
        stats.send(temp)
    stats.throw(ValueError)
    last = None
    for _, _, temp, _ in readings:
        last = stats.send(temp)
    stats.close()
    trainlib.check_equal(last[0], len(readings), "coroutine count after reset")
    indices = list(itertools.starmap(humidity_index, ((r[2], r[3]) for r in readings)))
    trainlib.check(all(0 <= h <= 100 for h in indices), "clamped index")
    cumulative = list(itertools.accumulate(r[3] for r in readings))
    trainlib.check_equal(cumulative[-1], sum(r[3] for r in readings), "accumulate")
    peaks = list(itertools.accumulate((r[2] for r in readings), max))
    hot = list(itertools.compress(readings, (t > 25 for t in map(operator.itemgetter(2), readings))))
    morning = list(itertools.takewhile(lambda r: r[0] < 6 * 3600, readings))
    rest = sum(1 for _ in itertools.dropwhile(lambda r: r[0] < 6 * 3600, readings))
    trainlib.check_equal(len(morning) + rest, len(readings), "takewhile + dropwhile")
    jumps = sum(1 for a, b in itertools.pairwise(readings) if abs(a[2] - b[2]) > 15)
    left, right = itertools.tee(r[3] for r in readings)
    next(right, None)
    rises = sum(1 for a, b in zip(left, right) if b > a)
    chunks = list(batches_and_count(readings, 64))
    trainlib.check_equal(chunks[-1], ("done", len(readings)), "yield from return value")
    return (sorted(by_station.items()), [round(x, 6) for x in last[1:]], round(math.fsum(indices), 4), round(peaks[-1], 2),
            len(hot), jumps, rises, len(chunks))


def combinatorics_workout(size):
    letters = "abcdefg"[:size]
    perms = list(itertools.permutations(letters))
    trainlib.check_equal(len(perms), functools.reduce(operator.mul, range(1, size + 1), 1), "n! permutations")
    words = {"".join(p) for p in perms}
    pairs_of = list(itertools.combinations(range(12), 3))
    trainlib.check_equal(len(pairs_of), 220, "12 choose 3")
    grid = list(itertools.product(range(4), "xyz", [True, False]))
    with_replacement = sum(1 for _ in itertools.combinations_with_replacement(range(6), 3))
    lengths = [len(list(g)) for _, g in itertools.groupby(sorted("mississippi" * 3))]
    interleaved = list(itertools.chain.from_iterable(itertools.zip_longest("abc", "12345", fillvalue="-")))
    cycled = list(itertools.islice(itertools.cycle(range(3)), 10))
    counted = list(zip(itertools.count(start=10, step=5), "abcd"))
    repeated = list(itertools.repeat("z", 3))
    return (len(words), min(words), max(words), len(grid), with_replacement, lengths, "".join(interleaved), cycled,
            counted, repeated)


def closure_workout(rng, count):
    def make_accumulator(start):
        total = start

        def add_to(amount):
            nonlocal total
            total += amount
            return total
        return add_to

    accs = [make_accumulator(k) for k in range(20)]
    for i in range(count):
        accs[i % 20](i % 7)
    final = [acc(0) for acc in accs]
    scale_by = [functools.partial(operator.mul, k) for k in range(1, 6)]
    chained = functools.reduce(lambda f, g: (lambda x: g(f(x))), [lambda x: x + 1, lambda x: x * 3, abs])
    values = [chained(sf(i)) for i in range(count // 10) for sf in scale_by]
    keyed = sorted(({"name": "n%03d" % rng.randrange(1000), "score": rng.randrange(100)} for _ in range(count // 10)),
                   key=lambda d: (-d["score"], d["name"]))
    total = functools.reduce(operator.add, map(lambda d: d["score"], keyed), 0)
    enumerated = {i: d["name"] for i, d in enumerate(keyed[:10], start=1)}
    squares = dict(zip(range(10), map(lambda x: x * x, range(10))))
    tree = [1, [2, [3, (4, 5)], 6], [[7], 8], 9]
    return final, sum(values), total, enumerated[1], squares[9], list(flatten(tree))


def main(scale):
    rng = Random(1234)
    results = []
    for _ in range(trainlib.reps(132, scale)):
        results.append(pipeline_workout(rng, 2000))
        results.append(combinatorics_workout(6))
        results.append(closure_workout(rng, 5000))
    return trainlib.finish(NAME, results)


if __name__ == "__main__":
    sys.exit(main(trainlib.scale_argument()))
