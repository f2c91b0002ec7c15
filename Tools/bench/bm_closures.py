"""Closures: nested functions, nonlocal state, decorators, lambdas, functools.partial."""
import functools

GROUP = "python"


def counter():
    n = 0

    def inc(k=1):
        nonlocal n
        n += k
        return n
    return inc


def logged(fn):
    calls = []

    def wrapper(*args):
        calls.append(len(args))
        return fn(*args)
    wrapper.calls = calls
    return wrapper


@logged
def mul(a, b):
    return a * b


def compose(f, g):
    return lambda x: f(g(x))


def bench():
    inc = counter()
    inc3 = functools.partial(inc, 3)
    f = compose(lambda x: x + 1, lambda x: x * 2)
    total = 0
    for i in range(6000):
        inc()
        inc3()
        total += f(i) + mul(i, 2)
    adders = [(lambda k: lambda x: x + k)(k) for k in range(50)]
    for a in adders:
        total = a(total) % 1000003
    mul.calls.clear()
    return total + inc(0)
