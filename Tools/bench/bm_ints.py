"""Integer arithmetic: small ints in loops, big ints (a pi digit spigot), gcd, divmod, bits."""

GROUP = "python"


def pi_digits(n):
    # Gibbons' unbounded spigot, written from the formula.
    q, r, t, k, m, x = 1, 0, 1, 1, 3, 3
    out = []
    while len(out) < n:
        if 4 * q + r - t < m * t:
            out.append(m)
            q, r, m = 10 * q, 10 * (r - m * t), (10 * (3 * q + r)) // t - 10 * m
        else:
            q, r, t, k, m, x = q * k, (2 * q + r) * x, t * x, k + 1, (q * (7 * k + 2) + r * x) // (t * x), x + 2
    return out


def bench():
    total = 0
    for i in range(1, 6000):
        a, b = divmod(i * 7919, 97)
        total += (a ^ b) + (i << 3) - (i >> 1) + i % 13
    total += sum(pi_digits(120))
    return total
