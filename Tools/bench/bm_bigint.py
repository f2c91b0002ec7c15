"""Big integers: e to thousands of digits by binary splitting, big products and modular powers."""

GROUP = "c-modules"


def split_terms(a, b):
    if b - a == 1:
        return 1, b
    mid = (a + b) // 2
    p1, q1 = split_terms(a, mid)
    p2, q2 = split_terms(mid, b)
    return p1 * q2 + p2, q1 * q2


def bench():
    p, q = split_terms(0, 900)
    digits = (p + q) * 10 ** 2500 // q
    modulus = (1 << 1279) - 1
    x = pow(3, digits & ((1 << 600) - 1), modulus)
    return len(str(digits)) + x % 1000 + (digits * digits).bit_length()
