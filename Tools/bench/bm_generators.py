"""Generators and comprehensions: yield, yield from, generator expressions, list/dict/set comprehensions."""

GROUP = "python"


def numbers(n):
    for i in range(n):
        yield i


def evens(n):
    yield from (i for i in numbers(n) if i % 2 == 0)


def pairs(seq):
    it = iter(seq)
    prev = next(it)
    for x in it:
        yield prev, x
        prev = x


def bench():
    total = sum(evens(6000))
    total += sum(a * b for a, b in pairs(range(3000)))
    squares = [i * i for i in range(3000) if i % 3]
    table = {i: i % 7 for i in range(2000)}
    kinds = {v for v in table.values()}
    nested = [[j for j in range(i % 10)] for i in range(500)]
    total += len(squares) + len(table) + len(kinds) + sum(map(len, nested))
    return total
