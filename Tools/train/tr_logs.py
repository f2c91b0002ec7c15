"""Imitates a log analyser: it generates web-server access log lines (combined log format,
with non-ASCII paths and some garbage lines), parses them with a compiled regular expression
and str methods, turns timestamps into datetimes with strptime, aggregates with Counter and
dicts, and writes a text report with f-strings and %-formatting.  Interpreter paths: re
matching and group extraction, str split/strip/lower/startswith/partition/replace, string
formatting, datetime parsing, dict and Counter updates, sorting with key functions.
"""
import re
import sys
from collections import Counter, defaultdict
from datetime import datetime, timedelta, timezone
from random import Random

import trainlib

NAME = "tr_logs"

LINE_RE = re.compile(
    r'(?P<ip>\d{1,3}(?:\.\d{1,3}){3}) (?P<ident>\S+) (?P<user>\S+) '
    r'\[(?P<when>[^\]]+)\] "(?P<method>[A-Z]+) (?P<target>\S+) (?P<proto>HTTP/[\d.]+)" '
    r'(?P<status>\d{3}) (?P<size>\d+|-) "(?P<referer>[^"]*)" "(?P<agent>[^"]*)"$')
TIME_FORMAT = "%d/%b/%Y:%H:%M:%S %z"

PATHS = ["/", "/index.html", "/about", "/blog/2023/été-à-paris", "/shop/cart", "/shop/checkout",
         "/api/v1/items", "/api/v1/items/%d", "/static/css/site.css", "/static/js/app.js",
         "/wiki/Straße", "/wiki/Москва", "/用户/资料", "/search", "/login", "/feed.xml"]
QUERIES = ["", "", "", "?q=naïve+café", "?page=%d", "?sort=price&order=desc", "?lang=de&q=größe",
           "?utm_source=news&utm_medium=email"]
AGENTS = ["Mozilla/5.0 (X11; Linux x86_64) Firefox/118.0",
          "Mozilla/5.0 (Windows NT 10.0; Win64; x64) Chrome/117.0 Safari/537.36",
          "Mozilla/5.0 (iPhone; CPU iPhone OS 16_6 like Mac OS X) Mobile/15E148",
          "Googlebot/2.1 (+http://www.google.com/bot.html)",
          "curl/8.4.0", "python-requests/2.31", "Mozilla/5.0 (compatible; bingbot/2.0)"]
USERS = ["-", "-", "-", "alice", "bob", "zoë", "ḱaren"]
METHODS = ["GET"] * 8 + ["POST", "POST", "HEAD", "PUT", "DELETE"]
STATUSES = [200] * 12 + [301, 302, 304, 304, 404, 404, 403, 500, 503]
GARBAGE = ["", "   ", "-- log rotated --", 'GET / HTTP/1.1', "\x00\x00binary junk\x7f",
           '127.0.0.1 - - [bad date] "GET / HTTP/1.1" 200 12 "-" "-"']


def generate_log(rng, count):
    """Returns log lines and the aggregates the analyser must find in them."""
    start = datetime(2023, 10, 28, 22, 15, 0, tzinfo=timezone(timedelta(hours=2)))
    lines = []
    truth = {"status": Counter(), "bytes": 0, "garbage": 0, "good": 0}
    moment = start
    for i in range(count):
        if i % 97 == 13:
            lines.append(GARBAGE[i % len(GARBAGE)])
            truth["garbage"] += 1
            continue
        moment += timedelta(seconds=rng.randrange(0, 9))
        ip = "%d.%d.%d.%d" % (rng.randrange(1, 224), rng.randrange(256), rng.randrange(256), rng.randrange(1, 255))
        path = rng.choice(PATHS)
        if "%d" in path:
            path = path % rng.randrange(1, 5000)
        query = rng.choice(QUERIES)
        if "%d" in query:
            query = query % rng.randrange(1, 40)
        status = rng.choice(STATUSES)
        size = "-" if status in (304, 301) else str(rng.randrange(120, 90000))
        referer = "-" if rng.random() < 0.6 else "https://example.org" + rng.choice(PATHS).replace("%d", "7")
        when = moment.strftime(TIME_FORMAT)
        lines.append('%s - %s [%s] "%s %s%s HTTP/1.1" %d %s "%s" "%s"' % (
            ip, rng.choice(USERS), when, rng.choice(METHODS), path, query, status, size, referer,
            rng.choice(AGENTS)))
        truth["status"][status] += 1
        truth["bytes"] += 0 if size == "-" else int(size)
        truth["good"] += 1
    return lines, truth


class LogRecord:
    __slots__ = ("ip", "user", "when", "method", "path", "query", "status", "size", "referer", "agent")

    def __init__(self, **fields):
        for key, value in fields.items():
            setattr(self, key, value)

    def client_kind(self):
        agent = self.agent.lower()
        if "bot" in agent or agent.startswith(("curl/", "python-requests")):
            return "robot"
        if "mobile" in agent or "iphone" in agent:
            return "mobile"
        return "desktop"

    def to_line(self):
        """Back to the log format: a round-trip check of the parser."""
        target = self.path + ("?" + self.query if self.query else "")
        size = "-" if self.size is None else str(self.size)
        return f'{self.ip} - {self.user} [{self.when.strftime(TIME_FORMAT)}] "{self.method} {target} HTTP/1.1" ' \
               f'{self.status} {size} "{self.referer}" "{self.agent}"'


def parse_line(line):
    line = line.strip("\r\n")
    if not line.strip():
        return None
    m = LINE_RE.match(line)
    if m is None:
        return None
    try:
        when = datetime.strptime(m.group("when"), TIME_FORMAT)
    except ValueError:
        return None
    path, _, query = m.group("target").partition("?")
    size = m.group("size")
    return LogRecord(ip=m.group("ip"), user=m.group("user"), when=when, method=m.group("method"),
                     path=path, query=query, status=int(m.group("status")),
                     size=None if size == "-" else int(size), referer=m.group("referer"),
                     agent=m.group("agent"))


def parse_query(query):
    """A hand-written query-string parser (urllib is trained elsewhere)."""
    params = {}
    for part in query.split("&"):
        if not part:
            continue
        key, sep, value = part.partition("=")
        params.setdefault(key.lower(), []).append(value.replace("+", " ") if sep else "")
    return params


def section_of(path):
    parts = path.strip("/").split("/")
    head = parts[0] if parts[0] else "home"
    if head == "api" and len(parts) > 2:
        return "api:" + parts[2]
    if head.endswith((".html", ".xml")):
        return "page"
    return head


def analyse(records):
    status = Counter()
    per_hour = defaultdict(int)
    sections = Counter()
    kinds = Counter()
    search_terms = Counter()
    users = Counter()
    errors = []
    total_bytes = 0
    for rec in records:
        status[rec.status] += 1
        if rec.size is not None:
            total_bytes += rec.size
            per_hour[rec.when.strftime("%Y-%m-%d %H:00")] += rec.size
        sections[section_of(rec.path)] += 1
        kinds[rec.client_kind()] += 1
        if rec.user != "-":
            users[rec.user.casefold()] += 1
        if rec.query:
            for term in parse_query(rec.query).get("q", ()):
                search_terms[term.lower()] += 1
        if rec.status >= 500 or (rec.status >= 400 and rec.method != "GET"):
            errors.append((rec.when, rec.status, rec.path))
    errors.sort(key=lambda e: (-e[1], e[0], e[2]))
    return {"status": status, "per_hour": per_hour, "sections": sections, "kinds": kinds,
            "terms": search_terms, "users": users, "errors": errors, "bytes": total_bytes}


def write_report(stats):
    out = ["Access log summary", "=" * 18]
    total = sum(stats["status"].values())
    for code, n in sorted(stats["status"].items()):
        out.append("  %3d  %7d  %5.1f%%" % (code, n, 100.0 * n / total))
    for section, n in stats["sections"].most_common(8):
        out.append(f"  {section:<16} {n:>7,d}")
    for hour in sorted(stats["per_hour"])[:24]:
        out.append(f"  {hour}  {stats['per_hour'][hour] / 1024:10.1f} KiB")
    for kind, n in sorted(stats["kinds"].items(), key=lambda kv: (-kv[1], kv[0])):
        out.append("  %-8s %d" % (kind, n))
    for when, code, path in stats["errors"][:20]:
        out.append(f"  {when:%H:%M:%S} {code} {path!r}")
    return "\n".join(out)


def main(scale):
    rng = Random(1234)
    lines, truth = generate_log(rng, trainlib.reps(42000, scale))
    records = []
    rejected = 0
    for line in lines:
        rec = parse_line(line)
        if rec is None:
            rejected += 1
        else:
            records.append(rec)
    trainlib.check_equal(rejected, truth["garbage"], "garbage lines rejected")
    trainlib.check_equal(len(records), truth["good"], "lines parsed")
    good_lines = [line for line in lines if LINE_RE.match(line) and "[bad date]" not in line]
    for rec, line in zip(records, good_lines):
        trainlib.check_equal(rec.to_line(), line, "a log line formatted back")
    stats = analyse(records)
    trainlib.check_equal(dict(stats["status"]), dict(truth["status"]), "status counts")
    trainlib.check_equal(stats["bytes"], truth["bytes"], "bytes sent")
    trainlib.check_equal(sum(stats["per_hour"].values()), truth["bytes"], "bytes per hour add up")
    trainlib.check(sum(stats["kinds"].values()) == len(records), "every record has a client kind")
    report = write_report(stats)
    trainlib.check_equal(report.count("\n"), 1 + len(stats["status"]) + min(8, len(stats["sections"]))
                         + min(24, len(stats["per_hour"])) + len(stats["kinds"]) + min(20, len(stats["errors"])),
                         "report lines")
    results = (len(records), sorted(stats["status"].items()), sorted(stats["sections"].items()),
               sorted(stats["terms"].items()), sorted(stats["users"].items()),
               [(when.isoformat(), code, path) for when, code, path in stats["errors"][:50]],
               report)
    return trainlib.finish(NAME, results)


if __name__ == "__main__":
    sys.exit(main(trainlib.scale_argument()))
