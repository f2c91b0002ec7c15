"""Float arithmetic: a small n-body simulation with plain lists and math functions."""
import math

GROUP = "python"


def make_bodies():
    return [[math.cos(i), math.sin(i), i * 0.1, 0.0, 0.0, 0.0, 1.0 + i * 0.01] for i in range(5)]


def bench():
    bodies = make_bodies()
    dt = 0.01
    n = len(bodies)
    for _ in range(300):
        for i in range(n):
            bi = bodies[i]
            for j in range(i + 1, n):
                bj = bodies[j]
                dx = bi[0] - bj[0]
                dy = bi[1] - bj[1]
                dz = bi[2] - bj[2]
                d2 = dx * dx + dy * dy + dz * dz + 0.01
                mag = dt / (d2 * math.sqrt(d2))
                bi[3] -= dx * bj[6] * mag
                bi[4] -= dy * bj[6] * mag
                bi[5] -= dz * bj[6] * mag
                bj[3] += dx * bi[6] * mag
                bj[4] += dy * bi[6] * mag
                bj[5] += dz * bi[6] * mag
        for b in bodies:
            b[0] += dt * b[3]
            b[1] += dt * b[4]
            b[2] += dt * b[5]
    return sum(b[0] + b[1] + b[2] for b in bodies)
