"""Imitates a billing and accounting back end: exact money with decimal (the _decimal module and
libmpdec underneath).  It prices order lines with taxes and discounts, splits totals into
instalments that must add up to the cent, converts currencies at rates with many digits,
compounds interest and amortizes loans at high precision, and computes with exp, ln, log10,
sqrt and powers in local contexts of several precisions and rounding modes; traps and flags
(division by zero, inexact, invalid operations) are raised and caught.  Ratios are kept exact
with fractions.Fraction.  Interpreter paths: Decimal construction from str, int and float,
the arithmetic and comparison slots of Decimal, quantize and rounding, context switching,
formatting (format specs, str, to_eng_string), hashing of Decimals in dicts.
"""
import decimal
import sys
from decimal import Decimal
from fractions import Fraction
from random import Random

import trainlib

NAME = "tr_money"

CENT = Decimal("0.01")
MODES = [decimal.ROUND_HALF_EVEN, decimal.ROUND_HALF_UP, decimal.ROUND_DOWN, decimal.ROUND_CEILING,
         decimal.ROUND_FLOOR, decimal.ROUND_UP, decimal.ROUND_HALF_DOWN, decimal.ROUND_05UP]
VAT_RATES = {"standard": Decimal("0.20"), "reduced": Decimal("0.055"), "zero": Decimal("0"), "books": Decimal("0.021")}


def draft_invoice(rng, lines):
    items = []
    for n in range(lines):
        unit = Decimal(rng.randint(1, 500000)).scaleb(-2)
        qty = Decimal(rng.randint(1, 40))
        discount = Decimal(rng.choice(["0", "0.05", "0.1", "0.125", "0.333"]))
        vat = rng.choice(sorted(VAT_RATES))
        items.append(("sku-%05d" % n, unit, qty, discount, vat))
    return items


def settle_invoice(items):
    net = gross = Decimal(0)
    by_rate = {}
    for _, unit, qty, discount, vat in items:
        line = (unit * qty * (1 - discount)).quantize(CENT, rounding=decimal.ROUND_HALF_EVEN)
        tax = (line * VAT_RATES[vat]).quantize(CENT, rounding=decimal.ROUND_HALF_UP)
        by_rate[vat] = by_rate.get(vat, Decimal(0)) + tax
        net += line
        gross += line + tax
    trainlib.check_equal(gross, net + sum(by_rate.values()), "gross = net + taxes")
    return net, gross, sorted(by_rate.items())


def instalments(total, parts):
    """Splits total into parts that differ by at most a cent and add up exactly."""
    base = (total / parts).quantize(CENT, rounding=decimal.ROUND_DOWN)
    rest = int((total - base * parts) / CENT)
    plan = [base + CENT if i < rest else base for i in range(parts)]
    trainlib.check_equal(sum(plan), total, "instalments add up")
    return plan


def convert(rng, amounts):
    out = []
    with decimal.localcontext() as ctx:
        ctx.prec = 34
        for amount in amounts:
            rate = Decimal(rng.randint(10 ** 8, 10 ** 10)) / Decimal(10 ** 9)
            there = (amount * rate).quantize(Decimal("0.0001"))
            back = (there / rate).quantize(CENT)
            trainlib.check(abs(back - amount) <= CENT, "currency round trip within a cent")
            out.append(there)
    return sum(out), len(out)


def amortize(principal, yearly_rate, months):
    with decimal.localcontext() as ctx:
        ctx.prec = 50
        r = yearly_rate / 12
        factor = (1 + r) ** months
        payment = (principal * r * factor / (factor - 1)).quantize(CENT, rounding=decimal.ROUND_HALF_UP)
        balance, paid_interest = principal, Decimal(0)
        for _ in range(months):
            interest = (balance * r).quantize(CENT, rounding=decimal.ROUND_HALF_EVEN)
            paid_interest += interest
            balance = balance + interest - payment
        trainlib.check(abs(balance) < months * CENT, "loan paid off to within rounding")
    return payment, paid_interest, balance


def rounding_table(values):
    table = []
    for v in values:
        row = [str(v.quantize(Decimal("0.1"), rounding=mode)) for mode in MODES]
        row.append(str(v.to_integral_value(rounding=decimal.ROUND_HALF_EVEN)))
        table.append(row)
        trainlib.check(Decimal(row[3]) >= Decimal(row[4]), "ceiling is not below floor")
    return table


def transcendental(count):
    results = []
    for prec in (9, 28, 60):
        with decimal.localcontext() as ctx:
            ctx.prec = prec
            ctx.rounding = decimal.ROUND_HALF_EVEN
            acc = Decimal(0)
            for i in range(1, count):
                x = Decimal(i) / 7
                acc += x.exp().ln() - x
                root = x.sqrt()
                trainlib.check(abs(root * root - x) <= x.scaleb(2 - prec), "square root")
                acc += Decimal(i).log10() + x ** 3 - x.fma(x, 1)
            results.append(+acc.quantize(Decimal(1).scaleb(-min(prec, 30) // 2)))
    return results


def trap_errors(rng, count):
    caught = {"div": 0, "invalid": 0, "inexact": 0}
    for i in range(count):
        with decimal.localcontext() as ctx:
            ctx.traps[decimal.Inexact] = i % 3 == 0
            try:
                Decimal(rng.randint(1, 100)) / Decimal(i % 4)
            except decimal.DivisionByZero:
                caught["div"] += 1
            except decimal.Inexact:
                caught["inexact"] += 1
            try:
                Decimal("NaN-ish") if i % 5 == 0 else Decimal(-i).sqrt()
            except decimal.InvalidOperation:
                caught["invalid"] += 1
            ctx.traps[decimal.Inexact] = False
            ctx.clear_flags()
            Decimal(1) / Decimal(3)
            trainlib.check(ctx.flags[decimal.Inexact] and ctx.flags[decimal.Rounded], "flags of 1/3")
    trainlib.check(caught["div"] > 0 and caught["invalid"] > 0, "errors trapped")
    return sorted(caught.items())


def formats(values):
    shown = []
    for v in values:
        shown.append("%s|%s|%s|%s" % (format(v, ",.2f"), format(v, ">14.3e"), v.to_eng_string(), v.normalize()))
    ledger = {v.quantize(CENT): i for i, v in enumerate(values)}
    floats = sum(1 for v in values if Decimal(float(v)).quantize(CENT) == v.quantize(CENT))
    return shown[:4], len(ledger), floats, [v.as_tuple().exponent for v in values[:5]]


def exact_shares(count):
    owners = [Fraction(1, k) for k in range(2, count)]
    whole = sum(owners, Fraction(0))
    normalized = [share / whole for share in owners]
    trainlib.check_equal(sum(normalized), Fraction(1), "shares add up to one")
    approx = [s.limit_denominator(1000) for s in normalized[:10]]
    return whole.numerator % 1000003, whole.denominator % 1000003, approx, Decimal(whole.numerator) / whole.denominator


def main(scale):
    rng = Random(4711)
    results = []
    for _ in range(trainlib.reps(36, scale)):
        items = draft_invoice(rng, 1500)
        net, gross, taxes = settle_invoice(items)
        results.append((net, gross, taxes))
        results.append(instalments(gross, rng.randint(2, 37))[:3])
        results.append(convert(rng, [unit for _, unit, _, _, _ in items]))
        results.append(amortize(Decimal(rng.randint(10000, 900000)), Decimal("0.0425"), 360))
        results.append(rounding_table([Decimal(rng.randint(-99999, 99999)).scaleb(-3) for _ in range(300)])[:5])
        results.append(transcendental(60))
        results.append(trap_errors(rng, 600))
        results.append(formats([Decimal(rng.randint(1, 10 ** 12)).scaleb(-rng.randint(0, 6)) for _ in range(600)]))
        results.append(exact_shares(60))
    return trainlib.finish(NAME, [str(r) for r in results])


if __name__ == "__main__":
    sys.exit(main(trainlib.scale_argument()))
