"""Imitates a text-mining job (a search indexer or a log scrubber): regular expressions run over
large generated documents, in str (Latin-1, BMP and astral text, so all three string widths of
the matcher) and in bytes.  It extracts words, dates with named groups, e-mail addresses and
amounts; rewrites with templates and callables (sub, subn); splits with and without capturing
groups; validates lines with match and fullmatch; lexes an expression language with lastgroup;
and runs searches that fail over the whole input (the scanning loop of the matcher), lookaround,
backreferences, lazy and bounded repeats, IGNORECASE (with Unicode case folding), MULTILINE,
DOTALL and VERBOSE.  Interpreter paths: the _sre module's compile, search, match, findall,
finditer, split and sub on large inputs; str joins and slicing around them.
"""
import itertools
import re
import sys
from random import Random

import trainlib

NAME = "tr_textsearch"

SYLLABLES = ["ka", "lo", "mi", "ter", "van", "sul", "dor", "pe", "ix", "rho", "qua", "zen", "bri", "ost", "em"]
FOREIGN = ["\u03b1\u03bb\u03c6\u03b1", "\u0392\u03ae\u03c4\u03b1", "\u043c\u0438\u0440",
           "\u0421\u0442\u0440\u043e\u043a\u0430", "na\u00efve", "\u00e9t\u00e9", "Stra\u00dfe",
           "\u6771\u4eac", "\u0648\u0631\u062f"]
ASTRAL = ["\U0001F600", "\U0001D11E", "\U00010348"]

DATE_RX = re.compile(r"(?P<year>\d{4})-(?P<month>0[1-9]|1[0-2])-(?P<day>[0-2]\d|3[01])")
MAIL_RX = re.compile(r"[\w.+-]+@[\w-]+(?:\.[\w-]+)+")
PRICE_RX = re.compile(r"""
    (?P<currency>[$\u20ac])      # a currency sign
    (?P<whole>\d{1,3}(?:,\d{3})*) # thousands separated by commas
    (?:\.(?P<cents>\d{2}))?       # optional cents
    """, re.VERBOSE)
TAG_RX = re.compile(r"#([a-z]\w{2,15})")
DOUBLED_RX = re.compile(r"\b(\w+)\s+\1\b", re.IGNORECASE)
SETTING_RX = re.compile(r"^(?P<key>[a-z_][a-z0-9_]*)\s*=\s*(?P<value>.*?)\s*$", re.MULTILINE)
IDENT_RX = re.compile(r"[A-Za-z_][A-Za-z0-9_]*")
STRONG_RX = re.compile(r"(?=.*\d)(?=.*[a-z])(?=.*[A-Z]).{8,}")
ANGLE_RX = re.compile(r"<(.+?)>", re.DOTALL)
ABSENT_RX = re.compile(r"zq\d{3}x+y")
LEXER_RX = re.compile(r"""
    (?P<number>\d+(?:\.\d+)?)
  | (?P<name>[A-Za-z_]\w*)
  | (?P<op>\*\*|[-+*/%()=<>!]=?)
  | (?P<space>\s+)
  | (?P<junk>.)
""", re.VERBOSE)


def coin_word(rng):
    return "".join(rng.choice(SYLLABLES) for _ in range(rng.randint(1, 4)))


def compose_document(rng, lines, width):
    """A document and what was planted in it: (text, dates, mails, prices, doubled words)."""
    out, planted = [], {"dates": 0, "mails": 0, "prices": 0, "doubled": 0, "tags": 0}
    for n in range(lines):
        words = []
        for _ in range(width):
            roll = rng.random()
            if roll < 0.03:
                words.append("%04d-%02d-%02d" % (rng.randint(1990, 2030), rng.randint(1, 12), rng.randint(1, 28)))
                planted["dates"] += 1
            elif roll < 0.05:
                words.append("%s.%s@%s.example" % (coin_word(rng), coin_word(rng), coin_word(rng)))
                planted["mails"] += 1
            elif roll < 0.07:
                words.append("$%s.%02d" % (format(rng.randint(1, 999999), ","), rng.randint(0, 99)))
                planted["prices"] += 1
            elif roll < 0.08:
                w = coin_word(rng)
                words.append(w + " " + w.capitalize())
                planted["doubled"] += 1
            elif roll < 0.09:
                words.append("#" + rng.choice(SYLLABLES) + coin_word(rng))
                planted["tags"] += 1
            elif roll < 0.12:
                words.append(rng.choice(FOREIGN))
            else:
                words.append(coin_word(rng))
        sep = "; " if n % 5 == 0 else " "
        out.append(sep.join(words) + ("." if n % 3 else ","))
    return "\n".join(out), planted


def letters_runs(text):
    """Runs of letters counted without re: the answer [^\\W\\d_]+ must give."""
    return sum(1 for is_alpha, _ in itertools.groupby(text, str.isalpha) if is_alpha)


def extract(text, planted):
    words = re.findall(r"[^\W\d_]+", text)
    trainlib.check_equal(len(words), letters_runs(text), "letter runs found by findall")
    dates = [m.groupdict() for m in DATE_RX.finditer(text)]
    trainlib.check_equal(len(dates), planted["dates"], "dates found")
    trainlib.check(all(1 <= int(d["month"]) <= 12 for d in dates), "months in range")
    mails = MAIL_RX.findall(text)
    trainlib.check_equal(len(mails), planted["mails"], "mail addresses found")
    cents = 0
    for m in PRICE_RX.finditer(text):
        cents += int(m.group("whole").replace(",", "")) * 100 + int(m.group("cents") or 0)
    tags = TAG_RX.findall(text)
    trainlib.check_equal(len(tags), planted["tags"], "hash tags found")
    doubled = DOUBLED_RX.findall(text)
    trainlib.check(len(doubled) >= planted["doubled"], "doubled words found")
    return len(words), sorted(set(mails))[:3], cents, len(doubled), dates[:2]


def rewrite(text, planted):
    swapped, n = DATE_RX.subn(r"\g<day>/\g<month>/\g<year>", text)
    trainlib.check_equal(n, planted["dates"], "dates rewritten")
    back = re.sub(r"(\d\d)/(\d\d)/(\d{4})", r"\3-\2-\1", swapped)
    trainlib.check_equal(back, text, "dates rewritten back")
    shouted = TAG_RX.sub(lambda m: "#" + m.group(1).upper(), text)
    trainlib.check_equal(len(shouted), len(text), "tags upper-cased in place")
    masked = MAIL_RX.sub(lambda m: "<" + "*" * len(m.group(0)) + ">", text)
    spans = ANGLE_RX.findall(masked)
    trainlib.check_equal(len(spans), planted["mails"], "masked spans")
    squeezed = re.sub(r"\s{2,}|[ \t]+$", " ", text, flags=re.MULTILINE)
    return n, len(masked), len(squeezed), sorted(set(spans))[:2]


def split_up(text):
    clauses = re.split(r"[;,.]\s*", text)
    with_seps = re.split(r"([;,.])\s*", text)
    trainlib.check_equal(len(with_seps), 2 * len(clauses) - 1, "split with a capturing group")
    first_three = re.split(r"\s+", text, maxsplit=3)
    trainlib.check_equal(len(first_three), 4, "maxsplit")
    lines = text.splitlines()
    fields = sum(len(re.split(r"(?<=[a-z])(?=[A-Z])|\s+", line)) for line in lines[:200])
    return len(clauses), fields, first_three[:3]


def validate(rng, count):
    settings = "\n".join("%s_%d = %s" % (coin_word(rng), i, coin_word(rng)) if i % 7 else "# comment %d" % i
                         for i in range(count))
    pairs = {m.group("key"): m.group("value") for m in SETTING_RX.finditer(settings)}
    trainlib.check_equal(len(pairs), count - (count + 6) // 7, "settings parsed")
    good = sum(1 for k in pairs if IDENT_RX.fullmatch(k))
    trainlib.check_equal(good, len(pairs), "keys are identifiers")
    secrets = [coin_word(rng) + str(i) + coin_word(rng).upper() for i in range(count)]
    strong = sum(1 for s in secrets if STRONG_RX.match(s))
    weak = sum(1 for s in secrets if not re.fullmatch(r"[a-z]+\d+[A-Z]+", s))
    trainlib.check_equal(weak, 0, "generated secrets have the expected shape")
    partial = sum(1 for s in secrets if IDENT_RX.match(s) and not IDENT_RX.fullmatch(s + "!"))
    return len(pairs), good, strong, partial


def lex(rng, statements):
    source = "\n".join("v%d = (%d + x%d) * %d.5 ** 2 <= y%d != z # @" % (i, i, i % 7, i % 13, i) for i in range(statements))
    kinds = {}
    for m in LEXER_RX.finditer(source):
        kinds[m.lastgroup] = kinds.get(m.lastgroup, 0) + 1
    trainlib.check_equal(kinds["junk"], 2 * statements, "junk characters")
    trainlib.check_equal(kinds["number"], 3 * statements, "numbers")
    return sorted(kinds.items())


def scan_for_absent(text):
    """Searches that fail: the matcher walks the whole text."""
    misses = 0
    for rx in (ABSENT_RX, re.compile(re.escape("needle (not) [here]")), re.compile(r"\d{9,}"),
               re.compile(r"(?i)\bqqq\w*zzz\b")):
        misses += rx.search(text) is None
    trainlib.check_equal(misses, 4, "searches that find nothing")
    return misses


def wide_text(rng, text):
    """The same work on BMP and astral text (the UCS-2 and UCS-4 matchers)."""
    bmp = text.replace("ka", "\u043a\u0430").replace("lo", "\u03bb\u03bf")
    astral = bmp.replace("ter", "t" + rng.choice(ASTRAL) + "r")
    results = []
    for variant in (bmp, astral):
        greek = re.findall(r"[\u0370-\u03ff]+", variant)
        folded = len(re.findall("\u039b\u039f", variant, re.IGNORECASE))
        trainlib.check(folded > 0, "case-insensitive Greek")
        words = len(re.findall(r"\w+", variant))
        results.append((len(greek), folded, words))
    trainlib.check_equal(len(re.findall("[\U00010000-\U0010ffff]", astral)), bmp.count("ter"),
                         "astral characters found")
    return results


def byte_lines(text):
    data = text.encode("utf-8")
    digits = re.findall(rb"\d+", data)
    trainlib.check_equal(len(digits), len(re.findall(r"[0-9]+", text)), "digit runs in bytes and str")
    lines = re.split(rb"\r?\n", data)
    trainlib.check_equal(len(lines), text.count("\n") + 1, "lines of bytes")
    ascii_words = re.findall(rb"(?i)[a-z]{6,}", data)
    dates = [m.group(1) for m in re.finditer(rb"(\d{4})-\d\d-\d\d", data)]
    cleaned = re.sub(rb"[^\x00-\x7f]+", b"?", data)
    trainlib.check(len(cleaned) <= len(data), "non-ASCII replaced")
    return len(digits), len(ascii_words), len(dates), len(cleaned)


def main(scale):
    rng = Random(20240611)
    results = []
    for _ in range(trainlib.reps(8, scale)):
        text, planted = compose_document(rng, 1500, 14)
        results.append(sorted(planted.items()))
        results.append(extract(text, planted))
        results.append(rewrite(text, planted))
        results.append(split_up(text))
        results.append(validate(rng, 300))
        results.append(lex(rng, 150))
        results.append(scan_for_absent(text))
        results.append(wide_text(rng, text))
        results.append(byte_lines(text))
    return trainlib.finish(NAME, results)


if __name__ == "__main__":
    sys.exit(main(trainlib.scale_argument()))
