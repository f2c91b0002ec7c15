"""Exceptions: raise and catch, custom hierarchies, try/finally, with statements, re-raising."""

GROUP = "python"


class AppError(Exception):
    pass


class NotFound(AppError):
    def __init__(self, key):
        super().__init__(key)
        self.key = key


class Resource:
    def __init__(self):
        self.open = 0

    def __enter__(self):
        self.open += 1
        return self

    def __exit__(self, *exc):
        self.open -= 1
        return False


def lookup(d, k):
    try:
        return d[k]
    except KeyError:
        raise NotFound(k) from None


def bench():
    d = {i: i for i in range(0, 3000, 3)}
    r = Resource()
    total = 0
    for i in range(3000):
        try:
            with r:
                total += lookup(d, i)
        except NotFound as e:
            total += e.key % 3
        except AppError:
            total -= 1
        finally:
            total += 1
        try:
            int("x" if i % 4 == 0 else "1")
        except ValueError:
            total += 2
    return total + r.open
