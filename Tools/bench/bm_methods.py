"""Method calls: instance, class and static methods, super(), bound method objects."""

GROUP = "python"


class Counter:
    def __init__(self):
        self.n = 0

    def bump(self, k):
        self.n += k
        return self

    def get(self):
        return self.n

    @classmethod
    def make(cls):
        return cls()

    @staticmethod
    def twice(x):
        return x * 2


class LoudCounter(Counter):
    def bump(self, k):
        return super().bump(k + 1)


def bench():
    c = Counter.make()
    d = LoudCounter()
    bump = d.bump
    for i in range(8000):
        c.bump(i).bump(1)
        bump(i)
        c.bump(Counter.twice(i))
    return c.get() + d.get()
