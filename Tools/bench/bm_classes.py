"""Classes: instance creation, inheritance, dunder methods (__eq__, __hash__, __lt__, __add__), isinstance."""

GROUP = "python"


class Vec:
    __slots__ = ("x", "y")

    def __init__(self, x, y):
        self.x = x
        self.y = y

    def __add__(self, o):
        return Vec(self.x + o.x, self.y + o.y)

    def __eq__(self, o):
        return isinstance(o, Vec) and self.x == o.x and self.y == o.y

    def __hash__(self):
        return hash((self.x, self.y))

    def __lt__(self, o):
        return (self.x, self.y) < (o.x, o.y)


class Shape:
    def area(self):
        raise NotImplementedError


class Rect(Shape):
    def __init__(self, w, h):
        self.w, self.h = w, h

    def area(self):
        return self.w * self.h


class Square(Rect):
    def __init__(self, s):
        super().__init__(s, s)


def bench():
    acc = Vec(0, 0)
    seen = set()
    for i in range(3000):
        v = Vec(i % 17, i % 5)
        acc = acc + v
        seen.add(v)
    shapes = [Square(i % 9) if i % 2 else Rect(i % 7, 3) for i in range(3000)]
    total = sum(s.area() for s in shapes if isinstance(s, Rect))
    return total + acc.x + len(seen) + len(sorted(seen))
