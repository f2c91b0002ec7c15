"""Imitates the domain model of a small banking and geometry application written in an
object-oriented style: an abstract account hierarchy with super() chains and validated
properties, frozen and ordered dataclasses for transactions, enums and flags, a descriptor for
bounded fields, alternative constructors (classmethods), a plugin registry filled by
__init_subclass__, a visitor that dispatches with getattr, and Vector3/Matrix classes with
operator overloading.  Interpreter paths: attribute lookup through the MRO, descriptors and
properties, special-method dispatch of binary operators, __slots__, __eq__/__hash__/__repr__,
isinstance/issubclass with ABCs, getattr/setattr with computed names.
"""
import abc
import enum
import math
import sys
from dataclasses import dataclass, field, replace
from decimal import Decimal
from random import Random

import trainlib

NAME = "tr_objects"


class Bounded:
    """A data descriptor that keeps a numeric attribute within limits."""

    def __init__(self, low, high):
        self.low, self.high = low, high

    def __set_name__(self, owner, name):
        self.slot = "_" + name

    def __get__(self, obj, objtype=None):
        if obj is None:
            return self
        return getattr(obj, self.slot)

    def __set__(self, obj, value):
        if not self.low <= value <= self.high:
            raise ValueError("%s out of range: %r" % (self.slot[1:], value))
        setattr(obj, self.slot, value)


class TxKind(enum.Enum):
    DEPOSIT = "deposit"
    WITHDRAWAL = "withdrawal"
    FEE = "fee"
    INTEREST = "interest"
    TRANSFER = "transfer"

    @property
    def sign(self):
        return -1 if self in (TxKind.WITHDRAWAL, TxKind.FEE) else 1


class Perm(enum.IntFlag):
    READ = 1
    WRITE = 2
    CLOSE = 4
    ADMIN = READ | WRITE | CLOSE


@dataclass(frozen=True, order=True)
class Transaction:
    day: int
    seq: int
    kind: TxKind = field(compare=False)
    amount: Decimal = field(compare=False)
    memo: str = field(default="", compare=False)


class InsufficientFunds(Exception):
    def __init__(self, account, wanted):
        super().__init__("%s: cannot withdraw %s (balance %s)" % (account.number, wanted, account.balance))
        self.account, self.wanted = account, wanted


class Account(abc.ABC):
    registry = {}
    rate = Bounded(Decimal("0"), Decimal("0.2"))

    def __init_subclass__(cls, code=None, **kwargs):
        super().__init_subclass__(**kwargs)
        if code:
            Account.registry[code] = cls

    def __init__(self, number, owner, rate=Decimal("0")):
        self.number = number
        self.owner = owner
        self.rate = rate
        self._balance = Decimal("0")
        self.history = []
        self.perms = Perm.READ | Perm.WRITE

    @classmethod
    def open(cls, code, number, owner, **options):
        return cls.registry[code](number, owner, **options)

    @property
    def balance(self):
        return self._balance

    @abc.abstractmethod
    def withdrawal_limit(self):
        ...

    def _post(self, day, kind, amount, memo=""):
        if not self.perms & Perm.WRITE:
            raise PermissionError(self.number)
        tx = Transaction(day, len(self.history), kind, amount, memo)
        self._balance += kind.sign * amount
        self.history.append(tx)
        return tx

    def deposit(self, day, amount, memo=""):
        return self._post(day, TxKind.DEPOSIT, amount, memo)

    def withdraw(self, day, amount, memo=""):
        if amount > self.withdrawal_limit():
            raise InsufficientFunds(self, amount)
        return self._post(day, TxKind.WITHDRAWAL, amount, memo)

    def month_end(self, day):
        interest = (self._balance * self.rate / 12).quantize(Decimal("0.01"))
        if interest > 0:
            self._post(day, TxKind.INTEREST, interest)

    def __repr__(self):
        return "%s(%r, %r, balance=%s)" % (type(self).__name__, self.number, self.owner, self._balance)

    def __eq__(self, other):
        return isinstance(other, Account) and self.number == other.number

    def __hash__(self):
        return hash(self.number)


class Checking(Account, code="chk"):
    def __init__(self, number, owner, overdraft=Decimal("100")):
        super().__init__(number, owner)
        self.overdraft = overdraft

    def withdrawal_limit(self):
        return self._balance + self.overdraft

    def month_end(self, day):
        if self._balance < 0:
            self._post(day, TxKind.FEE, Decimal("2.50"), "overdraft fee")
        super().month_end(day)


class Savings(Account, code="sav"):
    def __init__(self, number, owner, rate=Decimal("0.03")):
        super().__init__(number, owner, rate)

    def withdrawal_limit(self):
        return self._balance


class Youth(Savings, code="yth"):
    def withdrawal_limit(self):
        return min(super().withdrawal_limit(), Decimal("50"))


class Bank:
    def __init__(self):
        self.accounts = {}
        self.refused = 0

    def open(self, code, owner, **options):
        acct = Account.open(code, "AC%05d" % (len(self.accounts) + 1), owner, **options)
        self.accounts[acct.number] = acct
        return acct

    def transfer(self, day, src, dst, amount):
        try:
            src.withdraw(day, amount, "to " + dst.number)
        except InsufficientFunds:
            self.refused += 1
            return False
        dst.deposit(day, amount, "from " + src.number)
        return True


def simulate_bank(rng, days):
    bank = Bank()
    owners = ["ann", "bo", "cy", "di", "ed", "flo", "gus", "hal"]
    for i, owner in enumerate(owners * 3):
        code = ("chk", "sav", "yth")[i % 3]
        acct = bank.open(code, owner) if code != "sav" else bank.open(code, owner, rate=Decimal("0.0%d" % (1 + i % 5)))
        acct.deposit(0, Decimal(rng.randrange(100, 5000)))
    accounts = list(bank.accounts.values())
    for day in range(1, days + 1):
        for _ in range(12):
            a, b = rng.choice(accounts), rng.choice(accounts)
            if a is not b:
                bank.transfer(day, a, b, Decimal(rng.randrange(1, 400)) / 4)
        if day % 30 == 0:
            for acct in accounts:
                acct.month_end(day)
    try:
        accounts[0].rate = Decimal("5")
        trainlib.check(False, "the Bounded descriptor accepted 5")
    except ValueError:
        pass
    accounts[1].perms &= ~Perm.WRITE
    try:
        accounts[1].deposit(days, Decimal(1))
        trainlib.check(False, "a read-only account took a deposit")
    except PermissionError:
        pass
    # the books balance: every account equals the signed sum of its history
    for acct in accounts:
        total = sum((tx.amount * tx.kind.sign for tx in acct.history), Decimal(0))
        trainlib.check_equal(total, acct.balance, "history of %s" % acct.number)
        trainlib.check(acct.history == sorted(acct.history), "history is ordered")
    kinds = {}
    for acct in accounts:
        for tx in acct.history:
            kinds[tx.kind.value] = kinds.get(tx.kind.value, 0) + 1
    trainlib.check(isinstance(accounts[2], Savings) and issubclass(Youth, Account), "class hierarchy")
    trainlib.check(Perm.ADMIN & Perm.CLOSE and Perm(3) == Perm.READ | Perm.WRITE, "flags")
    last = replace(accounts[0].history[-1], memo="edited")
    trainlib.check(last == accounts[0].history[-1] and last.memo == "edited", "dataclass replace/compare")
    return sorted(kinds.items()), [str(a.balance) for a in accounts], bank.refused, repr(accounts[3])


class Vector3:
    __slots__ = ("x", "y", "z")

    def __init__(self, x=0.0, y=0.0, z=0.0):
        self.x, self.y, self.z = x, y, z

    @classmethod
    def from_iterable(cls, values):
        return cls(*values)

    def __iter__(self):
        yield self.x
        yield self.y
        yield self.z

    def __add__(self, other):
        return Vector3(self.x + other.x, self.y + other.y, self.z + other.z)

    def __sub__(self, other):
        return Vector3(self.x - other.x, self.y - other.y, self.z - other.z)

    def __mul__(self, k):
        if isinstance(k, Vector3):
            return self.x * k.x + self.y * k.y + self.z * k.z
        return Vector3(self.x * k, self.y * k, self.z * k)

    __rmul__ = __mul__

    def __truediv__(self, k):
        return Vector3(self.x / k, self.y / k, self.z / k)

    def __neg__(self):
        return Vector3(-self.x, -self.y, -self.z)

    def __abs__(self):
        return (self * self) ** 0.5

    def __matmul__(self, other):
        """Cross product."""
        return Vector3(self.y * other.z - self.z * other.y, self.z * other.x - self.x * other.z,
                       self.x * other.y - self.y * other.x)

    def __eq__(self, other):
        return isinstance(other, Vector3) and tuple(self) == tuple(other)

    def __hash__(self):
        return hash(tuple(self))

    def __repr__(self):
        return "Vector3(%g, %g, %g)" % (self.x, self.y, self.z)


class Matrix:
    def __init__(self, rows):
        self.rows = [list(r) for r in rows]
        self.n = len(self.rows)

    @staticmethod
    def identity(n):
        return Matrix([[1.0 if i == j else 0.0 for j in range(n)] for i in range(n)])

    @classmethod
    def rotation_z(cls, cos_t, sin_t):
        return cls([[cos_t, -sin_t, 0.0], [sin_t, cos_t, 0.0], [0.0, 0.0, 1.0]])

    def __getitem__(self, ij):
        i, j = ij
        return self.rows[i][j]

    def __setitem__(self, ij, value):
        i, j = ij
        self.rows[i][j] = value

    def __len__(self):
        return self.n

    def __matmul__(self, other):
        if isinstance(other, Vector3):
            return Vector3.from_iterable(math.fsum(a * b for a, b in zip(row, other)) for row in self.rows)
        cols = list(zip(*other.rows))
        return Matrix([[math.fsum(a * b for a, b in zip(row, col)) for col in cols] for row in self.rows])

    def __add__(self, other):
        return Matrix([[a + b for a, b in zip(r, s)] for r, s in zip(self.rows, other.rows)])

    def __mul__(self, k):
        return Matrix([[a * k for a in r] for r in self.rows])

    def transpose(self):
        return Matrix(zip(*self.rows))

    def __eq__(self, other):
        return all(abs(a - b) < 1e-9 for r, s in zip(self.rows, other.rows) for a, b in zip(r, s))

    __hash__ = None


def geometry_workout(rng, count):
    # rotations by a Pythagorean angle (3-4-5) keep lengths; cross products are orthogonal
    rot = Matrix.rotation_z(0.6, 0.8)
    trainlib.check(rot @ rot.transpose() == Matrix.identity(3), "rotation is orthogonal")
    total = Vector3()
    seen = {}
    for i in range(count):
        v = Vector3(rng.randrange(-9, 10), rng.randrange(-9, 10), rng.randrange(-9, 10))
        w = Vector3(1, 2, 3) * (i % 4) - v / 2
        c = v @ w
        trainlib.check(abs(c * v) < 1e-6 and abs(c * w) < 1e-6, "cross product is orthogonal")
        r = rot @ v
        trainlib.check(abs(abs(r) - abs(v)) < 1e-9, "rotation keeps length")
        total = total + (-r) + 2 * v
        seen[v] = seen.get(v, 0) + 1
    m = Matrix.identity(3)
    for _ in range(count // 20):
        m = (m @ rot) * 1.0 + Matrix.identity(3) * 0.0
    m[0, 0] = round(m[0, 0], 6)
    return repr(Vector3(*(round(c, 6) for c in total))), len(seen), len(m), m[0, 0]


class Node:
    def __init__(self, *children, **attrs):
        self.children = list(children)
        for key, value in attrs.items():
            setattr(self, key, value)


class Shop(Node):
    pass


class Aisle(Node):
    pass


class Shelf(Node):
    pass


class Item(Node):
    pass


class Auditor:
    """A visitor: dispatches on the class name with getattr, as many frameworks do."""

    def __init__(self):
        self.value = 0
        self.visited = {}

    def visit(self, node):
        name = type(node).__name__
        self.visited[name] = self.visited.get(name, 0) + 1
        method = getattr(self, "visit_" + name.lower(), self.generic_visit)
        return method(node)

    def generic_visit(self, node):
        for child in node.children:
            self.visit(child)

    def visit_item(self, node):
        self.value += getattr(node, "price", 0) * getattr(node, "count", 1)

    def visit_shelf(self, node):
        if getattr(node, "closed", False):
            return
        self.generic_visit(node)


def audit_shop(rng, aisles):
    shop = Shop(*[Aisle(*[Shelf(*[Item(price=rng.randrange(1, 50), count=rng.randrange(0, 9)) for _ in range(6)],
                                closed=(a + s) % 7 == 0) for s in range(5)], name="aisle%d" % a)
                  for a in range(aisles)])
    auditor = Auditor()
    auditor.visit(shop)
    expected = sum(item.price * item.count for aisle in shop.children for shelf in aisle.children
                   if not shelf.closed for item in shelf.children)
    trainlib.check_equal(auditor.value, expected, "visitor total")
    for aisle in shop.children:
        for attr in ("name", "label"):
            if hasattr(aisle, attr):
                setattr(aisle, "label", getattr(aisle, attr).upper())
    return auditor.value, sorted(auditor.visited.items()), shop.children[-1].label


def main(scale):
    rng = Random(1234)
    results = []
    for _ in range(trainlib.reps(86, scale)):
        results.append(simulate_bank(rng, 60))
        results.append(geometry_workout(rng, 800))
        results.append(audit_shop(rng, 20))
    return trainlib.finish(NAME, results)


if __name__ == "__main__":
    sys.exit(main(trainlib.scale_argument()))
