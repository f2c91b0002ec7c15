"""Attribute access: instance dicts, __slots__, properties, class attributes, getattr."""

GROUP = "python"


class Point:
    scale = 3

    def __init__(self, x, y):
        self.x = x
        self.y = y


class SlotPoint:
    __slots__ = ("x", "y")

    def __init__(self, x, y):
        self.x = x
        self.y = y


class Box:
    def __init__(self, w):
        self._w = w

    @property
    def width(self):
        return self._w

    @width.setter
    def width(self, v):
        self._w = v


def bench():
    p = Point(1, 2)
    s = SlotPoint(3, 4)
    b = Box(5)
    total = 0
    for i in range(10000):
        p.x = p.y + i
        s.y = s.x + p.scale
        b.width = b.width + 1
        total += p.x + s.y + getattr(p, "y")
    return total + b.width
