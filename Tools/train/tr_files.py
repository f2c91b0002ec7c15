"""Imitates a backup/sync tool working on a project tree: it creates directories and text and
binary files (UTF-8 with non-ASCII names and content, CRLF and LF line endings), reads them
back in every common way (read, readlines, line iteration, chunks, pathlib helpers), walks the
tree with os.walk, os.scandir and pathlib globbing (always sorted), builds a manifest of sizes
and SHA-256/MD5/BLAKE2 digests, finds duplicate files, copies and moves files with shutil,
rotates logs, and compresses with gzip.  All of it happens in a scratch directory with a fixed
name (train-scratch-files) in the current directory, removed at the end, also on error.
Interpreter paths: the io stack (FileIO, BufferedReader/Writer, TextIOWrapper with decoding
and newline translation), os and posixpath functions, pathlib objects, hashlib updates.
"""
import gzip
import hashlib
import os
import shutil
import sys
from pathlib import Path
from random import Random

import trainlib

NAME = "tr_files"

DIRS = ["src", "src/core", "src/plugins", "docs", "docs/images", "données", "logs", "build/tmp"]
VOCABULARY = ["alpha", "beta", "gamma", "delta", "Ελλάδα", "München", "naïve", "東京", "façade", "zeta"]


def create_tree(root, rng, n_files):
    for d in DIRS:
        os.makedirs(os.path.join(root, d), exist_ok=True)
    created = {}
    for i in range(n_files):
        folder = DIRS[i % len(DIRS)]
        if i % 4 == 0:
            name = "blob%03d.bin" % i
            data = rng.randbytes(rng.randrange(64, 2048))
            with open(os.path.join(root, folder, name), "wb") as f:
                f.write(data)
        else:
            name = ("note_%s_%03d.txt" % (VOCABULARY[i % len(VOCABULARY)], i))
            lines = [" ".join(rng.choices(VOCABULARY, k=rng.randrange(3, 14))) for _ in range(rng.randrange(5, 60))]
            newline = "\r\n" if i % 3 == 0 else "\n"
            with open(os.path.join(root, folder, name), "w", encoding="utf-8", newline=newline) as f:
                f.writelines(line + "\n" for line in lines)
            data = newline.join(lines).encode("utf-8") + newline.encode()
        created[os.path.join(folder, name)] = data
    # a few exact duplicates, for the duplicate finder
    for i, rel in enumerate(sorted(created)[:6]):
        copy = os.path.join("build/tmp", "dup%d_%s" % (i, os.path.basename(rel)))
        shutil.copy(os.path.join(root, rel), os.path.join(root, copy))
        created[copy] = created[rel]
    return created


def file_digests(path, chunk=4096):
    sha, md5, blake = hashlib.sha256(), hashlib.md5(), hashlib.blake2b(digest_size=16)
    with open(path, "rb") as f:
        while True:
            block = f.read(chunk)
            if not block:
                break
            sha.update(block)
            md5.update(block)
            blake.update(block)
    return sha.hexdigest(), md5.hexdigest(), blake.hexdigest()


def walk_manifest(root):
    manifest = {}
    for dirpath, dirnames, filenames in os.walk(root):
        dirnames.sort()  # walk order must not depend on the file system
        for name in sorted(filenames):
            path = os.path.join(dirpath, name)
            rel = os.path.relpath(path, root)
            st = os.stat(path)
            sha, md5, blake = file_digests(path)
            manifest[rel.replace(os.sep, "/")] = (st.st_size, sha, md5[:8], blake[:8])
    return manifest


def scandir_sizes(root):
    """Recursive size per top-level directory with os.scandir."""
    def size_of(path):
        total = 0
        with os.scandir(path) as it:
            entries = sorted(it, key=lambda e: e.name)
        for entry in entries:
            if entry.is_dir(follow_symlinks=False):
                total += size_of(entry.path)
            elif entry.is_file(follow_symlinks=False):
                total += entry.stat(follow_symlinks=False).st_size
        return total

    with os.scandir(root) as it:
        tops = sorted((e.name, e.path) for e in it if e.is_dir())
    return {name: size_of(path) for name, path in tops}


def read_back(root, created):
    line_total = 0
    word_total = 0
    for rel in sorted(created):
        path = os.path.join(root, rel)
        if rel.endswith(".bin"):
            with open(path, "rb") as f:
                head = f.read(16)
                f.seek(-min(16, len(created[rel])), os.SEEK_END)
                tail = f.read()
                f.seek(0)
                whole = f.read()
            trainlib.check(whole == created[rel] and whole.startswith(head) and whole.endswith(tail), "binary " + rel)
            continue
        raw = Path(path).read_bytes()
        trainlib.check_equal(raw, created[rel], "bytes of " + rel)
        with open(path, encoding="utf-8") as f:  # universal newlines: CRLF becomes \n
            lines = f.readlines()
        with open(path, encoding="utf-8", newline="") as f:
            kept = [line for line in f]
        trainlib.check_equal(len(lines), len(kept), "line counts of " + rel)
        trainlib.check(all(not line.endswith("\r\n") for line in lines), "newline translation")
        line_total += len(lines)
        word_total += sum(len(line.split()) for line in lines)
        text = Path(path).read_text(encoding="utf-8")
        trainlib.check_equal(text, "".join(lines), "read_text of " + rel)
    return line_total, word_total


def find_duplicates(manifest):
    by_hash = {}
    for rel, (size, sha, _, _) in manifest.items():
        by_hash.setdefault((size, sha), []).append(rel)
    return sorted(sorted(group) for group in by_hash.values() if len(group) > 1)


def rotate_logs(root, count):
    logs = Path(root) / "logs"
    current = logs / "app.log"
    for generation in range(count):
        with current.open("a", encoding="utf-8") as f:
            for i in range(40):
                f.write("%04d-%02d entry %s ünï\n" % (generation, i, "x" * (i % 17)))
        if current.stat().st_size > 2000:
            for k in range(4, 0, -1):
                older = logs / ("app.log.%d.gz" % k)
                if older.exists():
                    if k == 4:
                        older.unlink()
                    else:
                        older.rename(logs / ("app.log.%d.gz" % (k + 1)))
            with current.open("rb") as src, gzip.GzipFile(logs / "app.log.1.gz", "wb", mtime=0) as dst:
                shutil.copyfileobj(src, dst)
            current.unlink()
    archives = sorted(p.name for p in logs.glob("app.log.*.gz"))
    contents = []
    for name in archives:
        with gzip.open(logs / name, "rt", encoding="utf-8") as f:
            contents.append(sum(1 for _ in f))
    return archives, contents


def reorganise(root):
    base = Path(root)
    shutil.copytree(base / "src", base / "backup" / "src")
    moved = 0
    for p in sorted((base / "docs").rglob("*.txt")):
        target = base / "backup" / "docs" / p.relative_to(base / "docs")
        target.parent.mkdir(parents=True, exist_ok=True)
        shutil.move(str(p), str(target))
        moved += 1
    copied = sorted(str(p.relative_to(base)) for p in (base / "backup").rglob("*") if p.is_file())
    suffixes = {}
    for p in sorted(base.rglob("*")):
        if p.is_file():
            suffixes[p.suffix or "(none)"] = suffixes.get(p.suffix or "(none)", 0) + 1
    shutil.rmtree(base / "build")
    trainlib.check(not (base / "build").exists(), "rmtree")
    renamed = 0
    for p in sorted((base / "données").iterdir()):
        if p.suffix == ".txt":
            p.rename(p.with_name(p.stem.upper() + p.suffix))
            renamed += 1
    return moved, len(copied), sorted(suffixes.items()), renamed


def one_round(root, rng, n_files):
    created = create_tree(root, rng, n_files)
    manifest = walk_manifest(root)
    trainlib.check_equal(sorted(manifest), sorted(k.replace(os.sep, "/") for k in created), "manifest names")
    for rel, data in created.items():
        trainlib.check_equal(manifest[rel.replace(os.sep, "/")][1], hashlib.sha256(data).hexdigest(), "hash " + rel)
    sizes = scandir_sizes(root)
    trainlib.check_equal(sum(sizes.values()), sum(len(d) for d in created.values()), "scandir sizes")
    lines, words = read_back(root, created)
    # a sync tool scans again before it acts: nothing changed, so the scans agree (and the
    # reads are served from the page cache: the Python side of the io stack at work)
    for _ in range(2):
        trainlib.check(walk_manifest(root) == manifest, "a second scan finds no change")
        trainlib.check_equal(read_back(root, created), (lines, words), "reading again")
    dups = find_duplicates(manifest)
    trainlib.check_equal(len(dups), 6, "duplicates found")
    logs = rotate_logs(root, 30)
    moves = reorganise(root)
    remaining = sorted(os.listdir(root))
    for name in remaining:
        path = os.path.join(root, name)
        if os.path.isdir(path):
            shutil.rmtree(path)
        else:
            os.remove(path)
    return trainlib.checksum(sorted(manifest.items())), sorted(sizes.items()), lines, words, dups, logs, moves, remaining


def main(scale):
    rng = Random(1234)
    results = []
    with trainlib.scratch_directory("files") as root:
        for _ in range(trainlib.reps(5, scale)):
            results.append(one_round(root, rng, 300))
    return trainlib.finish(NAME, results)


if __name__ == "__main__":
    sys.exit(main(trainlib.scale_argument()))
