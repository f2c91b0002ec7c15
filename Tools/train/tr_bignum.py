"""Imitates number-theory and cryptography scripts that live on big integers: products of many
factors (a balanced product tree checked against math.factorial and math.comb), Lucas
sequences by fast doubling, modular exponentiation with 1024- to 3072-bit moduli (a
Diffie-Hellman exchange and Fermat tests), long division and divmod of numbers of thousands
of digits, gcd and modular inverses, integer square roots, bit twiddling on wide values, and
conversions between ints and decimal, hexadecimal, binary text and bytes (kept under the
default 4300-digit limit of int/str conversion).  Interpreter paths: the long object's
multiplication (schoolbook and Karatsuba), division, pow, shifts, bitwise ops, hashing and
its conversions to and from str and bytes.
"""
import math
import sys
from random import Random

import trainlib

NAME = "tr_bignum"

# An RFC 3526 style safe-prime size is too slow to search for here: a fixed odd modulus of
# the shape 2**k - c serves for the exchange, the group order does not matter for the check.
MODULUS_BITS = (1024, 2048, 3072)


def product_tree(values):
    while len(values) > 1:
        paired = [values[i] * values[i + 1] for i in range(0, len(values) - 1, 2)]
        if len(values) % 2:
            paired.append(values[-1])
        values = paired
    return values[0] if values else 1


def factorials(n):
    by_tree = product_tree(list(range(2, n + 1)))
    trainlib.check_equal(by_tree, math.factorial(n), "product tree of 2..n")
    binom = product_tree(list(range(n - 99, n + 1))) // math.factorial(100)
    trainlib.check_equal(binom, math.comb(n, 100), "binomial by division")
    trailing = (by_tree & -by_tree).bit_length() - 1
    trainlib.check_equal(trailing, sum(n >> k for k in range(1, n.bit_length() + 1)), "powers of two in n!")
    return by_tree.bit_length(), trailing, binom % 1000000007


def lucas_pair(n):
    """(F(n), L(n)) by fast doubling."""
    if n == 0:
        return 0, 2
    f, l = lucas_pair(n >> 1)
    f2, l2 = f * l, (l * l + (2 if (n >> 1) % 2 else -2))
    if n & 1:
        return (f2 + l2) >> 1, (5 * f2 + l2) >> 1
    return f2, l2


def sequences(n):
    f, l = lucas_pair(n)
    f1, l1 = lucas_pair(n + 1)
    trainlib.check_equal(l * l - 5 * f * f, 4 * (-1) ** n, "L^2 - 5F^2")
    trainlib.check_equal(l, 2 * f1 - f, "L(n) = 2F(n+1) - F(n)")
    return f.bit_length(), l % 999999937, f1 % 65537


def exchange(rng, bits, rounds):
    modulus = (1 << bits) - rng.randrange(3, 1 << 20, 2)
    g = 5
    digest = 0
    for _ in range(rounds):
        a, b = rng.getrandbits(320), rng.getrandbits(320)  # short exponents, as DH libraries use
        ga, gb = pow(g, a, modulus), pow(g, b, modulus)
        shared = pow(gb, a, modulus)
        trainlib.check_equal(shared, pow(ga, b, modulus), "both sides agree")
        digest ^= shared
    return digest.bit_length(), digest % 1000003


def fermat_survivors(rng, bits, count):
    survivors = 0
    for _ in range(count):
        n = rng.getrandbits(bits) | 1 | (1 << (bits - 1))
        if all(pow(a, n - 1, n) == 1 for a in (2, 3, 5)):
            survivors += 1
    return survivors


def long_division(rng, digits, count):
    sums = 0
    for _ in range(count):
        a = rng.getrandbits(int(digits * 3.33))
        b = rng.getrandbits(int(digits * 1.6)) | 1
        q, r = divmod(a, b)
        trainlib.check_equal(q * b + r, a, "divmod reconstructs")
        trainlib.check(0 <= r < b, "remainder range")
        nq, nr = divmod(-a, b)
        trainlib.check_equal(nq * b + nr, -a, "divmod of a negative")
        sums += (q % 1000003) + (a // (b >> 7 or 1)) % 97 + (a % (b >> 3 or 1)) % 89
    return sums


def gcd_and_inverse(rng, bits, count):
    found = 0
    for _ in range(count):
        m = rng.getrandbits(bits) | 1
        x = rng.getrandbits(bits)
        g = math.gcd(x, m)
        if g == 1:
            inv = pow(x, -1, m)
            trainlib.check_equal(x * inv % m, 1, "modular inverse")
            found += 1
        else:
            trainlib.check_equal(x % g + m % g, 0, "common divisor divides both")
        trainlib.check_equal(math.lcm(x, m) * g, x * m, "lcm * gcd")
    return found


def roots(rng, bits, count):
    out = 0
    for _ in range(count):
        n = rng.getrandbits(bits)
        s = math.isqrt(n)
        trainlib.check(s * s <= n < (s + 1) * (s + 1), "isqrt bounds")
        out = (out * 31 + s) % 1000000009
    return out


def wide_bits(rng, bits, count):
    acc = 0
    for i in range(count):
        x, y = rng.getrandbits(bits), rng.getrandbits(bits)
        z = (x ^ y) | ((x & y) << (i % 61)) | (~x & (y >> 17))
        trainlib.check_equal((x | y) - (x & y), x ^ y, "or - and = xor")
        acc ^= z >> (bits // 2)
        acc += bin(z).count("1") - z.bit_length() % 7
    return acc % 1000003


def conversions(rng, digits, count):
    seen = {}
    for i in range(count):
        x = rng.getrandbits(int(digits * 3.32))
        text = str(x)
        trainlib.check_equal(int(text), x, "decimal round trip")
        trainlib.check_equal(int(hex(x), 16), x, "hex round trip")
        trainlib.check_equal(int(format(x, "b"), 2), x, "binary round trip")
        trainlib.check_equal(int(oct(x), 8), x, "octal round trip")
        raw = x.to_bytes((x.bit_length() + 7) // 8 or 1, "big")
        trainlib.check_equal(int.from_bytes(raw, "big"), x, "bytes round trip")
        signed = (-x).to_bytes(len(raw) + 1, "little", signed=True)
        trainlib.check_equal(int.from_bytes(signed, "little", signed=True), -x, "signed bytes round trip")
        seen[x] = i
        trainlib.check_equal(seen[int(text)], i, "hash of a big int")
        spaced = format(x, ",")
        trainlib.check_equal(int(spaced.replace(",", "")), x, "thousands separators")
    return len(seen), len(text)


def main(scale):
    rng = Random(31337)
    results = []
    for i in range(trainlib.reps(6, scale)):
        results.append(factorials(2500 + 37 * i))
        results.append(sequences(60000 + i))
        for bits in MODULUS_BITS:
            results.append(exchange(rng, bits, 3))
        results.append(fermat_survivors(rng, 512, 40))
        results.append(long_division(rng, 3000, 60))
        results.append(gcd_and_inverse(rng, 2048, 60))
        results.append(roots(rng, 6000, 80))
        results.append(wide_bits(rng, 4000, 400))
        results.append(conversions(rng, 4000, 25))
    return trainlib.finish(NAME, results)


if __name__ == "__main__":
    sys.exit(main(trainlib.scale_argument()))
