"""CPython fills a type's slots by comparing functions by address (typeobject.c's slot table:
wrap_binaryfunc against wrap_binaryfunc_l; list's and tuple's sq_concat): a post-link tool or
linker that folds byte-identical functions into one fills them wrongly, and then a list plus a
tuple subclass, or a date subclass plus an int, returns garbage or crashes instead of raising TypeError
(llvm-bolt's -icf=1 did that to CPython 3.13; python/cpython gh-148832).  Run by profopt's
verify stage and BOLT's check on the final interpreter; each case runs in a process of its
own, so that a crash is named; exits 0 when every case gave the right answer, 1 naming the
cases that did not."""
import datetime
import os
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "lib"))
import cases  # noqa: E402  (Tools/check/lib: the runner the checks share)


class T(tuple):
    pass


class L(list):
    pass


class D(datetime.date):
    pass


class DT(datetime.datetime):
    pass


class Both:
    def __sub__(self, other):
        return "sub"

    def __rsub__(self, other):
        return "rsub"


def raises_type_error(operation):
    def case():
        try:
            value = operation()
        except TypeError:
            return None
        return "returned %.60r instead of raising TypeError" % (value,)
    return case


def equals(operation, expected):
    def case():
        value = operation()
        return None if value == expected else "gave %.60r, not %r" % (value, expected)
    return case


CASES = {
    "list + tuple subclass": raises_type_error(lambda: [3] + T((1, 2))),
    "tuple + list subclass": raises_type_error(lambda: (3,) + L([1, 2])),
    "date + int": raises_type_error(lambda: datetime.date(2020, 1, 1) + 1),
    "date subclass + int": raises_type_error(lambda: D(2020, 1, 1) + 1),
    "datetime subclass + float": raises_type_error(lambda: DT(2020, 1, 1) + 1.5),
    "int + date subclass": raises_type_error(lambda: 1 + D(2020, 1, 1)),
    "tuple subclass + tuple": equals(lambda: T((1,)) + (2,), (1, 2)),
    "list subclass + list": equals(lambda: L([1]) + [2], [1, 2]),
    "date + timedelta": equals(lambda: datetime.date(2020, 1, 1) + datetime.timedelta(days=1),
                               datetime.date(2020, 1, 2)),
    "reflected operand": equals(lambda: (1 - Both(), Both() - 1), ("rsub", "sub")),
    "int slot wrappers": equals(lambda: ((10).__sub__(3), (10).__rsub__(3)), (7, -7)),
}


def run_case(name):
    """In this process: 0 when the case gave the right answer, else 1 with what it did."""
    wrong = CASES[name]()
    if wrong:
        print(wrong)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(cases.main("slot_identity", CASES, run_case, "gave the right answer"))
