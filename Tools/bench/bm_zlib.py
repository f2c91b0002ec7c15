"""zlib: compress and decompress a log-like buffer at two levels, and a CRC."""
import zlib

GROUP = "c-modules"

PLAIN = "".join("%06d level=%s msg=step %d done\n" % (v, ("info", "debug", "error")[v % 3], v * 13 % 101)
                for v in range(12000)).encode("ascii")


def bench():
    out = 0
    for level in (1, 6):
        packed = zlib.compress(PLAIN, level)
        out += len(zlib.decompress(packed)) + len(packed)
    return out + zlib.crc32(PLAIN)
