"""decimal: pi to many digits by Machin's formula, and a ledger of quantized amounts."""
import decimal
from decimal import Decimal

GROUP = "c-modules"

AMOUNTS = [Decimal(j * 7919 % 1000003).scaleb(-3) for j in range(2000)]


def arctan_inverse(x, ctx):
    x = Decimal(x)
    power = 1 / x
    total, k, sign, x2 = power, 3, -1, x * x
    while True:
        power /= x2
        term = power / k
        if term == 0 or ctx.prec + term.adjusted() < 0:
            return total
        total += sign * term
        sign, k = -sign, k + 2


def bench():
    with decimal.localcontext() as wide:
        wide.prec = 400
        pi = 4 * (4 * arctan_inverse(5, wide) - arctan_inverse(239, wide))
    acc = Decimal(0)
    for a in AMOUNTS:
        acc += (a * Decimal("1.0825")).quantize(Decimal("0.01"), rounding=decimal.ROUND_HALF_UP)
    return int(str(pi)[-10:]) + int(acc)
