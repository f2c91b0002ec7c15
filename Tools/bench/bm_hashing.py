"""hashlib: message digests of short and long buffers."""
import hashlib

GROUP = "c-modules"

LONG = bytes(range(256)) * 2048
SHORT = [b"message number %d" % u for u in range(1500)]


def bench():
    h = 0
    for algo in (hashlib.sha256, hashlib.md5, hashlib.sha1, hashlib.blake2b, hashlib.sha3_256, hashlib.sha512):
        h += algo(LONG).digest()[0]
        for s in SHORT[:300]:
            h += algo(s).digest()[1]
    return h
