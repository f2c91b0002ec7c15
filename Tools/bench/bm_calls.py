"""Function calls: positional, keyword, default, *args/**kwargs, and recursion."""

GROUP = "python"


def add(a, b):
    return a + b


def scaled(a, b=2, *, c=3):
    return a * b + c


def varargs(*args):
    return len(args)


def kwargs(**kw):
    return len(kw)


def fib(n):
    return n if n < 2 else fib(n - 1) + fib(n - 2)


def bench():
    total = 0
    for i in range(6000):
        total = add(total, i)
        total = add(total, scaled(i))
        total += scaled(i, 3, c=1)
        total += varargs(i, i, i)
        total += kwargs(x=i, y=i)
    total += fib(17)
    return total
