"""Imitates a backup and content-addressed storage tool: it chunks generated files (text-like,
repetitive and random data), fingerprints every chunk with hashlib's md5, sha1, sha224, sha256,
sha384, sha512, sha3, shake and blake2 (one-shot, incremental update, copy(), keyed and
salted blake2, hmac), and packs the chunks with zlib, bz2 and lzma at several levels, one-shot
and streaming (compressobj/decompressobj with small reads, unconsumed tails, flush modes),
checking every round trip and CRC32/Adler-32.  Interpreter paths: the hashing modules
(_md5, _sha1, _sha2 or _sha256/_sha512, _sha3, _blake2, _hashlib/OpenSSL), hmac, the zlib, bz2 and
lzma modules, bytes slicing and joining.  bz2 and lzma (and zlib) are optional (skipped when CPython was
built without them).
"""
import hashlib
import hmac
import sys
from random import Random

import trainlib

NAME = "tr_digest"

ALGORITHMS = ["md5", "sha1", "sha224", "sha256", "sha384", "sha512", "sha3_256", "sha3_512", "blake2b", "blake2s"]
SIZES = [0, 1, 55, 56, 63, 64, 65, 127, 128, 1000, 4096, 65536, 300000]


def make_files(rng):
    prose = " ".join("entry %d value %d status %s" % (i, rng.randint(0, 999), rng.choice(["ok", "warn", "fail"]))
                     for i in range(9000)).encode("ascii")
    repeats = (b"\x00" * 4000 + b"header-block" * 300) * 20
    noise = rng.randbytes(120000)
    return {"prose": prose, "repeats": repeats, "noise": noise}


def chunks(data, size):
    return [data[i:i + size] for i in range(0, len(data), size)]


def fingerprints(files):
    table = {}
    for name, data in sorted(files.items()):
        for algo in ALGORITHMS:
            whole = hashlib.new(algo, data).hexdigest()
            stepwise = hashlib.new(algo)
            for piece in chunks(data, 8191):
                stepwise.update(piece)
            trainlib.check_equal(stepwise.hexdigest(), whole, "%s incremental = one-shot (%s)" % (algo, name))
            half = hashlib.new(algo, data[:len(data) // 2])
            forked = half.copy()
            forked.update(data[len(data) // 2:])
            trainlib.check_equal(forked.hexdigest(), whole, "%s copy()" % algo)
            table[(name, algo)] = whole[:16]
    return sorted(table.items())


def sized_digests(rng):
    out = []
    for size in SIZES:
        data = rng.randbytes(size)
        row = [getattr(hashlib, algo)(data).digest()[:4].hex() for algo in ALGORITHMS]
        row.append(hashlib.shake_128(data).hexdigest(20))
        row.append(hashlib.shake_256(data).hexdigest(33)[-6:])
        keyed = hashlib.blake2b(data, key=b"store-key", salt=b"salt1234", person=b"backup", digest_size=24).hexdigest()
        small = hashlib.blake2s(data, digest_size=16).hexdigest()
        mac = hmac.new(b"secret", data, "sha256").hexdigest()
        trainlib.check(hmac.compare_digest(mac, hmac.new(b"secret", data, hashlib.sha256).hexdigest()), "hmac")
        out.append((size, row, keyed[:10], small[:10], mac[:10]))
    trainlib.check_equal(hashlib.sha256(b"abc").hexdigest()[:16], "ba7816bf8f01cfea", "SHA-256 known answer")
    trainlib.check_equal(hashlib.md5(b"").hexdigest(), "d41d8cd98f00b204e9800998ecf8427e", "MD5 known answer")
    return out


def deflate(files):
    zlib = trainlib.optional_module("zlib")
    if zlib is None:
        return "no zlib module"
    out = []
    for name, data in sorted(files.items()):
        for level in (0, 1, 6, 9):
            packed = zlib.compress(data, level)
            trainlib.check_equal(zlib.decompress(packed), data, "zlib level %d (%s)" % (level, name))
        for wbits in (-15, 15, 31):
            packer = zlib.compressobj(5, zlib.DEFLATED, wbits, 8, zlib.Z_DEFAULT_STRATEGY)
            parts = []
            for i, piece in enumerate(chunks(data, 16384)):
                parts.append(packer.compress(piece))
                if i % 4 == 3:
                    parts.append(packer.flush(zlib.Z_SYNC_FLUSH))
            parts.append(packer.flush())
            stream = b"".join(parts)
            unpacker = zlib.decompressobj(wbits)
            pieces, rest = [], stream
            while rest:
                pieces.append(unpacker.decompress(rest, 8192))
                rest = unpacker.unconsumed_tail
            pieces.append(unpacker.flush())
            trainlib.check_equal(b"".join(pieces), data, "zlib stream wbits %d (%s)" % (wbits, name))
        out.append((name, len(data), zlib.crc32(data), zlib.adler32(data)))
    return out


def other_codecs(files):
    out = []
    bz2 = trainlib.optional_module("bz2")
    lzma = trainlib.optional_module("lzma")
    for name, data in sorted(files.items()):
        sample = data[:60000]
        if bz2:
            for level in (1, 9):
                trainlib.check_equal(bz2.decompress(bz2.compress(sample, level)), sample, "bz2 (%s)" % name)
            packer = bz2.BZ2Compressor(5)
            stream = b"".join(packer.compress(p) for p in chunks(sample, 10000)) + packer.flush()
            trainlib.check_equal(bz2.BZ2Decompressor().decompress(stream), sample, "bz2 stream (%s)" % name)
        if lzma:
            for preset in (0, 3):
                trainlib.check_equal(lzma.decompress(lzma.compress(sample, preset=preset)), sample, "xz (%s)" % name)
            raw = lzma.compress(sample, format=lzma.FORMAT_RAW, filters=[{"id": lzma.FILTER_LZMA2, "preset": 1}])
            back = lzma.decompress(raw, format=lzma.FORMAT_RAW, filters=[{"id": lzma.FILTER_LZMA2, "preset": 1}])
            trainlib.check_equal(back, sample, "raw LZMA2 (%s)" % name)
        out.append((name, len(sample)))
    return out, bz2 is not None, lzma is not None


def main(scale):
    rng = Random(5150)
    results = []
    for _ in range(trainlib.reps(5, scale)):
        files = make_files(rng)
        results.append(fingerprints(files))
        results.append(sized_digests(rng))
        results.append(deflate(files))
        results.append(other_codecs(files))
    return trainlib.finish(NAME, results)


if __name__ == "__main__":
    sys.exit(main(trainlib.scale_argument()))
