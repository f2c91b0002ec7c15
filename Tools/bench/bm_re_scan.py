"""Regular expressions on a large input: scans that mostly fail, word and number extraction,
substitution with group references, case-insensitive and Unicode classes, bytes."""
import re

GROUP = "c-modules"

_ROWS = []
for k in range(3000):
    _ROWS.append("GET /shop/item/%d?ref=%x HTTP/1.1 %d bytes=%d agent=Mozilla/%d.0 \u00fcber-caf\u00e9"
                 % (k, k * 2654435761 % 65536, 200 + (k % 7 == 0) * 204, k * 97 % 50000, k % 9))
HAYSTACK = "\n".join(_ROWS)
RAW = HAYSTACK.encode("utf-8")
REQUEST = re.compile(r"^GET (?P<path>/\S+?)\?ref=(?P<ref>[0-9a-f]+) HTTP/1\.[01] (?P<code>\d{3})", re.M)
NEVER = re.compile(r"POST /admin/\d+")
ACCENTED = re.compile(r"\b\w*[\u00e0-\u00ff]\w*\b")
SHOUT = re.compile(r"mozilla/(\d)", re.I)
BYTE_COUNTS = re.compile(rb"bytes=(\d+)")


def bench():
    n = 0
    for m in REQUEST.finditer(HAYSTACK):
        n += len(m.group("path")) + int(m.group("code"))
    n += NEVER.search(HAYSTACK) is None
    n += len(ACCENTED.findall(HAYSTACK))
    n += len(SHOUT.sub(r"MOZ\1", HAYSTACK))
    n += sum(int(b) for b in BYTE_COUNTS.findall(RAW))
    n += len(re.split(r"[?=&\s]+", HAYSTACK[:60000]))
    return n
