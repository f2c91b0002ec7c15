"""Imitates the text-cleaning stage of a search indexer or data importer that receives text
from many sources: it decodes bytes in UTF-8, UTF-16, UTF-32, Latin-1 and CP1252 (with strict,
replace, ignore, backslashreplace and xmlcharrefreplace error handlers), normalizes with
unicodedata (NFC/NFD/NFKC/NFKD), strips accents by character category, compares with casefold,
transliterates with str.translate/maketrans, slugifies titles, searches with find/rfind/
count/index, splits lines and fields, pads and aligns, and edits raw bytes with bytes and
bytearray methods.  Interpreter paths: the str implementation for all four internal kinds
(ASCII, Latin-1, UCS-2, UCS-4), codecs, unicodedata lookups, bytes/bytearray methods,
character-by-character loops and string building.
"""
import sys
import unicodedata
from random import Random

import trainlib

NAME = "tr_strings"

# Snippets in several scripts, all from Unicode 6.0 or older so every Python agrees on them.
SNIPPETS = [
    "The quick brown fox jumps over the lazy dog.",
    "Příliš žluťoučký kůň úpěl ďábelské ódy.",
    "Zwölf Boxkämpfer jagen Viktor quer über den großen Sylter Deich.",
    "Γαζέες καὶ μυρτιὲς δὲν θὰ βρῶ πιὰ στὸ χρυσαφὶ ξέφωτο.",
    "Съешь же ещё этих мягких французских булок, да выпей чаю.",
    "いろはにほへと ちりぬるを わかよたれそ つねならむ",
    "天地玄黃，宇宙洪荒。日月盈昃，辰宿列張。",
    "Ｆｕｌｌｗｉｄｔｈ ＡＢＣ ① ﬁ ﬂ ㎏ ™ ½",
    "emoji: 😀 🚀 🎉 — “quotes” and ‘apostrophes’ …",
    "Ça va? Où est la crème brûlée? Ñandú, pingüino, façade, naïve, résumé.",
]
CODECS = ["utf-8", "utf-16", "utf-16-le", "utf-32", "latin-1", "cp1252", "ascii"]
HANDLERS = ["replace", "ignore", "backslashreplace", "xmlcharrefreplace"]
SMART_PUNCT = str.maketrans({"“": '"', "”": '"', "‘": "'", "’": "'", "—": "-", "…": "...", "，": ",", "。": "."})


def strip_accents(text):
    decomposed = unicodedata.normalize("NFD", text)
    return "".join(ch for ch in decomposed if unicodedata.category(ch) != "Mn")


def slugify(title, limit=40):
    ascii_text = strip_accents(unicodedata.normalize("NFKC", title)).translate(SMART_PUNCT)
    out = []
    dash = False
    for ch in ascii_text.lower():
        if ch.isascii() and ch.isalnum():
            out.append(ch)
            dash = False
        elif not dash and out:
            out.append("-")
            dash = True
    return "".join(out).strip("-")[:limit]


def codec_workout(texts):
    sizes = {}
    lossy = []
    for text in texts:
        for codec in CODECS:
            try:
                data = text.encode(codec)
            except UnicodeEncodeError as exc:
                trainlib.check(exc.start < exc.end <= len(text), "encode error position")
                for handler in HANDLERS:
                    data = text.encode(codec, handler)
                    back = data.decode(codec)
                    lossy.append((codec, handler, len(data), back.count("?"), back.count("&#")))
                continue
            trainlib.check_equal(data.decode(codec), text, "%s round trip" % codec)
            sizes[codec] = sizes.get(codec, 0) + len(data)
        utf8 = text.encode("utf-8")
        # cutting UTF-8 in the middle of a character, as network reads do
        cut = utf8[: len(utf8) // 2 + 1]
        trainlib.check_equal(cut.decode("utf-8", "ignore"), cut.decode("utf-8", "replace").replace("\ufffd", ""),
                             "ignore vs replace")
        try:
            utf8[1:].decode("ascii")
        except UnicodeDecodeError as exc:
            lossy.append(("ascii-decode", exc.reason, exc.start))
    return sorted(sizes.items()), lossy


def normalization_workout(texts):
    out = []
    for text in texts:
        forms = {form: unicodedata.normalize(form, text) for form in ("NFC", "NFD", "NFKC", "NFKD")}
        trainlib.check_equal(unicodedata.normalize("NFC", forms["NFD"]), forms["NFC"], "NFD -> NFC")
        trainlib.check(unicodedata.is_normalized("NFC", forms["NFC"]), "is_normalized")
        marks = sum(1 for ch in forms["NFD"] if unicodedata.combining(ch))
        categories = {}
        for ch in text:
            cat = unicodedata.category(ch)
            categories[cat] = categories.get(cat, 0) + 1
        widths = sum(2 if unicodedata.east_asian_width(ch) in "WF" else 1 for ch in text)
        out.append((len(forms["NFC"]), len(forms["NFD"]), len(forms["NFKC"]), marks, sorted(categories.items()),
                    widths, slugify(text)))
    names = [unicodedata.name(ch, "?") for ch in "é✓€ß"]
    trainlib.check_equal(unicodedata.lookup("LATIN SMALL LETTER SHARP S"), "ß", "lookup by name")
    trainlib.check_equal(unicodedata.numeric("½"), 0.5, "numeric value")
    trainlib.check_equal("Straße".casefold(), "strasse", "casefold")
    trainlib.check("STRASSE".casefold() == "straße".casefold() and "ΣΊΣΥΦΟΣ".lower().endswith("ς"), "case rules")
    return out, names


def search_workout(rng, corpus, queries):
    found = []
    for _ in range(queries):
        doc = corpus[rng.randrange(len(corpus))]
        start = rng.randrange(max(1, len(doc) - 8))
        needle = doc[start:start + rng.randrange(1, 8)]
        first = doc.find(needle)
        last = doc.rfind(needle)
        trainlib.check(0 <= first <= start <= last or not needle, "find/rfind bounds")
        trainlib.check_equal(doc.index(needle), first, "index agrees with find")
        found.append((first, last, doc.count(needle), needle in doc, doc.startswith(needle), doc.endswith(needle)))
        folded = doc.casefold()
        found.append(folded.find(needle.casefold()) >= 0)
    try:
        corpus[0].index("\x00")
        trainlib.check(False, "index of a missing character")
    except ValueError:
        pass
    return found[:20], sum(1 for f in found if f is True), len(found)


def layout_workout(texts, rng):
    lines = []
    for text in texts:
        for word in text.split():
            w = word.strip(".,;:!?…“”‘’，。")
            if not w:
                continue
            lines.append("|".join((w.ljust(14, "·"), w.rjust(14), w.center(15, "*"), w.zfill(10), w.title(),
                                   w.swapcase(), w.upper(), str(w.isalpha()), str(w.isidentifier()))))
    block = "\n".join(lines) + "\r\n" + "tab\tseparated\tvalues" + "\u2028" + "last"
    split = block.splitlines()
    kept = block.splitlines(keepends=True)
    trainlib.check_equal("".join(kept), block, "splitlines(keepends)")
    expanded = [line.expandtabs(8) for line in split if "\t" in line]
    parts = [line.partition("|") for line in split[:50]]
    reparts = [line.rpartition("|")[2] for line in split[:50]]
    pieces = []
    for k in range(len(split)):
        line = split[rng.randrange(len(split))]
        pieces.append(line[k % 7:k % 7 + 12].replace("·", ".").removeprefix("*").removesuffix("*"))
    joined = "".join(pieces)
    return len(split), expanded, parts[:3], reparts[:3], len(joined), joined[:80], joined.count("..")


def bytes_workout(texts, rounds):
    raw = "\n".join(texts).encode("utf-8")
    buf = bytearray()
    for i in range(rounds):
        buf += raw[i % 50:]
        buf.extend(b"|%d|" % i)
        del buf[: len(buf) // 3]
        buf[0:4] = b"HEAD"
        buf[:] = buf.replace(b"|", b"/")
    trainlib.check(buf.startswith(b"HEAD"), "bytearray slice assignment")
    record = b"  key1=value1; key2 = value two ;key3=\xc3\xa9t\xc3\xa9  "
    fields = dict(part.strip().split(b"=", 1) for part in record.strip().split(b";"))
    fields = {k.strip().decode(): v.strip().decode("utf-8") for k, v in fields.items()}
    trainlib.check_equal(fields["key3"], "été", "bytes split/decode")
    hexed = raw[:64].hex(" ", 8)
    trainlib.check_equal(bytes.fromhex(hexed), raw[:64], "hex/fromhex")
    table = bytes.maketrans(b"abcdef", b"ABCDEF")
    translated = raw.translate(table, b"\n")
    upper = bytes(buf).upper()
    return (len(buf), buf.count(b"/"), fields, hexed[:23], len(translated), translated.count(b"A"),
            raw.find(b"\xce\x93"), upper.isupper(), bytes(buf[-10:]).hex())


def main(scale):
    rng = Random(1234)
    corpus = []
    for i in range(200):
        corpus.append(" ".join(rng.sample(SNIPPETS, 3)) + " #%d" % i)
    results = []
    for rep in range(trainlib.reps(60, scale)):
        results.append(codec_workout(SNIPPETS + corpus[rep * 5:rep * 5 + 30]))
        results.append(normalization_workout(SNIPPETS + corpus[:25]))
        results.append(search_workout(rng, corpus, 3000))
        results.append(layout_workout(corpus[:40], rng))
        results.append(bytes_workout(SNIPPETS, 2000))
    return trainlib.finish(NAME, results)


if __name__ == "__main__":
    sys.exit(main(trainlib.scale_argument()))
