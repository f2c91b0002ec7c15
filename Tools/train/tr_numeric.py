"""Imitates the number crunching of scientific and financial scripts: big-integer work (RSA-style
key generation with Miller-Rabin, modular inverses, fast-doubling Fibonacci, int <-> bytes and
str conversions), float geometry and the math module, exact money with decimal, exact series
with fractions, complex arithmetic (a recursive FFT and a Mandelbrot grid), descriptive
statistics, and a seeded Monte-Carlo simulation with random.Random.  Interpreter paths: the
int and float binary operators on small and big values, mixed int/float/complex/Fraction/Decimal
arithmetic through the number protocols, math and statistics calls, float formatting.
"""
import cmath
import math
import statistics
import sys
from decimal import ROUND_HALF_EVEN, ROUND_HALF_UP, Decimal, localcontext
from fractions import Fraction
from random import Random

import trainlib

NAME = "tr_numeric"


def is_probable_prime(n, bases=(2, 3, 5, 7, 11, 13, 17, 19, 23, 29, 31, 37)):
    if n < 2:
        return False
    for p in bases:
        if n % p == 0:
            return n == p
    d, s = n - 1, 0
    while d % 2 == 0:
        d //= 2
        s += 1
    for a in bases:
        x = pow(a, d, n)
        if x in (1, n - 1):
            continue
        for _ in range(s - 1):
            x = x * x % n
            if x == n - 1:
                break
        else:
            return False
    return True


def random_prime(rng, bits):
    while True:
        candidate = rng.getrandbits(bits) | (1 << (bits - 1)) | 1
        if is_probable_prime(candidate):
            return candidate


def rsa_workout(rng, bits, messages):
    p, q = random_prime(rng, bits), random_prime(rng, bits)
    n, phi = p * q, (p - 1) * (q - 1)
    e = 65537
    trainlib.check_equal(math.gcd(e, phi), 1, "RSA exponent is coprime")
    d = pow(e, -1, phi)
    trainlib.check_equal(e * d % phi, 1, "modular inverse")
    width = (n.bit_length() + 7) // 8
    digest = 0
    for i in range(messages):
        text = ("message %d: pay %d to ünïcode" % (i, i * 31)).encode("utf-8")
        m = int.from_bytes(text, "big")
        trainlib.check(m < n, "message fits the modulus")
        c = pow(m, e, n)
        back = pow(c, d, n)
        trainlib.check_equal(back.to_bytes(width, "big").lstrip(b"\0"), text, "RSA round trip")
        digest = (digest * 31 + c) % (1 << 61)
    return n.bit_length(), digest, str(n)[:20], hex(p)[-8:]


def fibonacci_pair(n):
    """(F(n), F(n+1)) by fast doubling."""
    if n == 0:
        return 0, 1
    a, b = fibonacci_pair(n >> 1)
    c = a * (2 * b - a)
    d = a * a + b * b
    return (d, c + d) if n & 1 else (c, d)


def big_int_workout(count):
    trainlib.check_equal(fibonacci_pair(100)[0], 354224848179261915075, "F(100)")
    f = fibonacci_pair(3000)[0]
    trainlib.check_equal(int(str(f)), f, "big int str round trip")
    trainlib.check_equal(math.factorial(30), 265252859812191058636308480000000, "30!")
    total = 0
    for k in range(1, count):
        big = math.factorial(k % 60 + 20) // math.comb(k % 50 + 10, 5)
        total ^= big % (10 ** 18 + 9)
        total += math.isqrt(big) % 1000 + (big >> (k % 40)).bit_length()
        total += int(f"{big:x}", 16) % 97 + len(str(big % 10 ** 30))
    lcm = 1
    for k in range(1, 60):
        lcm = lcm * k // math.gcd(lcm, k)
    return total, lcm, sum(int(c) for c in str(f)), f.bit_length()


def float_workout(rng, count):
    points = [(rng.uniform(-10, 10), rng.uniform(-10, 10)) for _ in range(count)]
    perimeter = math.fsum(math.dist(a, b) for a, b in zip(points, points[1:]))
    angles = [math.atan2(y, x) for x, y in points]
    trig = math.fsum(math.sin(t) ** 2 + math.cos(t) ** 2 for t in angles)
    trainlib.check(abs(trig - count) < 1e-6, "sin^2 + cos^2 = 1")
    hyp = [math.hypot(x, y) for x, y in points]
    logs = math.fsum(math.log1p(h) - math.log(1 + h) for h in hyp)
    trainlib.check(abs(logs) < 1e-9, "log1p")
    trainlib.check(math.isclose(math.exp(math.log(12345.678)), 12345.678, rel_tol=1e-12), "exp/log")
    trainlib.check_equal(math.prod(range(1, 11)), 3628800, "math.prod")
    compound = 1000.0
    for month in range(240):
        compound *= 1 + 0.05 / 12
        compound = round(compound, 2) if month % 12 == 11 else compound
    # Newton's method for square roots against math.sqrt
    for x in hyp[:2000]:
        g = x / 2 or 1.0
        for _ in range(30):
            g = 0.5 * (g + x / g)
        trainlib.check(math.isclose(g, math.sqrt(x), rel_tol=1e-12), "Newton sqrt")
    ints = [int(h * 1000) for h in hyp]
    return ("%.6f" % perimeter, "%.4f" % compound, sum(ints) % 1000003, float.hex(round(perimeter, 3))[:12],
            "{:.3e}".format(max(hyp)), sum(math.floor(h) + math.ceil(h) for h in hyp))


def decimal_workout(rng, count):
    with localcontext() as ctx:
        ctx.prec = 60
        two = Decimal(2)
        root = two.sqrt()
        trainlib.check(str(root).startswith("1.41421356237309504880168872420969807856967187537694"), "sqrt(2)")
        # pi by the Gauss-Legendre iteration
        a, b, t, p = Decimal(1), Decimal(1) / two.sqrt(), Decimal(1) / 4, Decimal(1)
        for _ in range(7):
            a, b, t, p = (a + b) / 2, (a * b).sqrt(), t - p * ((a - b) / 2) ** 2, p * 2
        pi = (a + b) ** 2 / (4 * t)
        trainlib.check(str(pi).startswith("3.14159265358979323846264338327950288419716939937510"), "pi")
    cent = Decimal("0.01")
    ledger = []
    balance = Decimal("0")
    for _ in range(count):
        price = Decimal(rng.randrange(1, 100000)) / 100
        qty = rng.randrange(1, 12)
        vat = (price * qty * Decimal("0.19")).quantize(cent, rounding=ROUND_HALF_UP)
        discount = (price * qty * Decimal("0.035")).quantize(cent, rounding=ROUND_HALF_EVEN)
        line = price * qty + vat - discount
        balance += line
        ledger.append(line)
    trainlib.check_equal(sum(ledger, Decimal(0)), balance, "ledger total")
    trainlib.check_equal(Decimal("1.10") + Decimal("2.20"), Decimal("3.30"), "exact decimal addition")
    return str(balance), str(max(ledger)), str(pi)[:30], str((balance / count).quantize(cent))


def fraction_workout(count):
    harmonic = sum(Fraction(1, k) for k in range(1, 60))
    trainlib.check_equal(harmonic.denominator % 7, 0, "H(59) denominator")
    # continued fraction of sqrt(2) convergents approach sqrt(2)
    approx = Fraction(1)
    for _ in range(30):
        approx = 1 + 1 / (1 + approx)
    trainlib.check(abs(float(approx) - math.sqrt(2)) < 1e-15, "sqrt(2) convergent")
    trainlib.check_equal(Fraction(math.pi).limit_denominator(1000), Fraction(355, 113), "355/113")
    acc = Fraction(0)
    for k in range(1, count):
        acc += Fraction((-1) ** k * k, k * k + 1)
        if k % 50 == 0:
            acc = acc.limit_denominator(10 ** 12)
    egyptian = []
    rest = Fraction(7, 15)
    while rest:
        unit = Fraction(1, -(-rest.denominator // rest.numerator))
        egyptian.append(unit.denominator)
        rest -= unit
    return str(harmonic)[:30], str(approx), str(acc), egyptian, float(acc) < 0


def fft(values):
    n = len(values)
    if n == 1:
        return list(values)
    even, odd = fft(values[0::2]), fft(values[1::2])
    out = [0j] * n
    for k in range(n // 2):
        t = cmath.exp(-2j * math.pi * k / n) * odd[k]
        out[k], out[k + n // 2] = even[k] + t, even[k] - t
    return out


def inverse_fft(values):
    n = len(values)
    return [v.conjugate() / n for v in fft([v.conjugate() for v in values])]


def complex_workout(rng, size, grid):
    signal = [complex(rng.uniform(-1, 1), 0) + math.sin(2 * math.pi * 5 * i / size) for i in range(size)]
    spectrum = fft(signal)
    back = inverse_fft(spectrum)
    trainlib.check(max(abs(a - b) for a, b in zip(signal, back)) < 1e-9, "FFT round trip")
    peak = max(range(1, size // 2), key=lambda k: abs(spectrum[k]))
    trainlib.check_equal(peak, 5, "FFT finds the 5 Hz tone")
    inside = 0
    for i in range(grid):
        for j in range(grid):
            c = complex(-2.0 + 2.5 * i / grid, -1.25 + 2.5 * j / grid)
            z = 0j
            for _ in range(40):
                z = z * z + c
                if abs(z) > 2.0:
                    break
            else:
                inside += 1
    roots = [cmath.rect(1, 2 * math.pi * k / 7) for k in range(7)]
    trainlib.check(abs(sum(roots)) < 1e-12 and all(abs(r ** 7 - 1) < 1e-12 for r in roots), "roots of unity")
    return peak, inside, round(abs(spectrum[5]), 3), round(cmath.phase(roots[1]), 9)


def stats_workout(rng, count):
    heights = [rng.gauss(170, 8) for _ in range(count)]
    ages = [rng.randint(18, 90) for _ in range(count)]
    mean = statistics.fmean(heights)
    trainlib.check(abs(mean - statistics.mean(heights)) < 1e-9, "fmean vs mean")
    sd = statistics.stdev(heights)
    trainlib.check(5 < sd < 11, "standard deviation of N(170, 8)")
    quartiles = statistics.quantiles(ages, n=4)
    trainlib.check(quartiles[0] <= statistics.median(ages) <= quartiles[2], "quartiles around the median")
    trainlib.check_equal(statistics.median([1, 3, 5, 7]), 4.0, "median of an even list")
    trainlib.check_equal(statistics.mode([1, 2, 2, 3]), 2, "mode")
    # Monte-Carlo estimate of pi
    hits = sum(1 for _ in range(count * 3) if rng.random() ** 2 + rng.random() ** 2 <= 1.0)
    pi_estimate = 4 * hits / (count * 3)
    trainlib.check(abs(pi_estimate - math.pi) < 0.1, "Monte-Carlo pi")
    dice = [rng.randint(1, 6) + rng.randint(1, 6) for _ in range(count)]
    deck = list(range(52))
    rng.shuffle(deck)
    return ("%.6f" % mean, "%.6f" % sd, quartiles, hits, statistics.mode(dice), deck[:5],
            rng.choice("abcdef"), rng.sample(range(100), 3))


def main(scale):
    rng = Random(1234)
    results = []
    for _ in range(trainlib.reps(37, scale)):
        results.append(rsa_workout(rng, 256, 10))
        results.append(big_int_workout(400))
        results.append(float_workout(rng, 2000))
        results.append(decimal_workout(rng, 1500))
        results.append(fraction_workout(150))
        results.append(complex_workout(rng, 256, 24))
        results.append(stats_workout(rng, 1500))
    return trainlib.finish(NAME, results)


if __name__ == "__main__":
    sys.exit(main(trainlib.scale_argument()))
