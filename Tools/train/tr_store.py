"""Imitates a small web application's data layer on sqlite3 (an in-memory database): schema
creation with constraints and indexes, bulk inserts with executemany (qmark and named
parameters), point lookups through indexes, joins over three tables, GROUP BY aggregates,
recursive common table expressions, Python functions and aggregates registered with the
connection, sqlite3.Row and custom row factories, BLOB and Unicode columns, explicit
transactions with rollback, constraint violations caught as IntegrityError, and an
iterdump of the whole database.  Interpreter paths: the _sqlite module's connection, cursor,
statement cache, parameter binding and row conversion; calls from C back into Python.
Needs CPython built with sqlite3 (otherwise the task says so and checks the rest).
"""
import sys
from random import Random

import trainlib

NAME = "tr_store"

SCHEMA = """
CREATE TABLE author (id INTEGER PRIMARY KEY, handle TEXT NOT NULL UNIQUE, country TEXT, joined INTEGER);
CREATE TABLE article (id INTEGER PRIMARY KEY, author_id INTEGER NOT NULL REFERENCES author(id),
                      title TEXT NOT NULL, words INTEGER, body BLOB, score REAL);
CREATE TABLE remark (id INTEGER PRIMARY KEY, article_id INTEGER NOT NULL REFERENCES article(id),
                     author_id INTEGER NOT NULL, stars INTEGER CHECK (stars BETWEEN 1 AND 5), text TEXT);
CREATE INDEX article_by_author ON article(author_id);
CREATE INDEX remark_by_article ON remark(article_id, stars);
"""
COUNTRIES = ["NO", "BR", "JP", "KE", "FR", "IN", "CA", "\u00c5L"]


class Spread:
    """A Python aggregate: max - min of a column."""

    def __init__(self):
        self.low = self.high = None

    def step(self, value):
        if value is not None:
            self.low = value if self.low is None else min(self.low, value)
            self.high = value if self.high is None else max(self.high, value)

    def finalize(self):
        return None if self.low is None else self.high - self.low


def slugify(title):
    return "-".join(title.lower().split())


def populate(db, rng, authors, articles, remarks):
    db.executescript(SCHEMA)
    db.executemany("INSERT INTO author (handle, country, joined) VALUES (?, ?, ?)",
                   (("writer_%d" % i, rng.choice(COUNTRIES), 2000 + i % 24) for i in range(authors)))
    db.executemany("INSERT INTO article (author_id, title, words, body, score) "
                   "VALUES (:author, :title, :words, :body, :score)",
                   ({"author": rng.randint(1, authors), "title": "On the %s of %d things" % (rng.choice(COUNTRIES), i),
                     "words": rng.randint(100, 5000), "body": bytes(rng.getrandbits(8) for _ in range(32)),
                     "score": rng.random() * 10} for i in range(articles)))
    db.executemany("INSERT INTO remark (article_id, author_id, stars, text) VALUES (?, ?, ?, ?)",
                   ((rng.randint(1, articles), rng.randint(1, authors), rng.randint(1, 5),
                     "nice \u2713" if i % 3 else None) for i in range(remarks)))
    db.commit()
    counts = [db.execute("SELECT count(*) FROM %s" % t).fetchone()[0] for t in ("author", "article", "remark")]
    trainlib.check_equal(counts, [authors, articles, remarks], "rows inserted")
    return counts


def lookups(db, rng, authors, count):
    found = 0
    for _ in range(count):
        handle = "writer_%d" % rng.randrange(authors + 20)
        row = db.execute("SELECT id, country FROM author WHERE handle = ?", (handle,)).fetchone()
        found += row is not None
    trainlib.check(found > count // 2, "most handles exist")
    return found


def reports(db):
    db.row_factory = None
    top = db.execute("""
        SELECT a.handle, count(DISTINCT r.id) AS n, round(avg(r.stars), 3), sum(ar.words)
        FROM author a JOIN article ar ON ar.author_id = a.id JOIN remark r ON r.article_id = ar.id
        GROUP BY a.id HAVING n > 2 ORDER BY n DESC, a.handle LIMIT 10""").fetchall()
    trainlib.check(top and all(top[i][1] >= top[i + 1][1] for i in range(len(top) - 1)), "ordered by count")
    per_country = db.execute("SELECT country, count(*), min(joined), max(joined) FROM author GROUP BY country "
                             "ORDER BY country").fetchall()
    total = sum(row[1] for row in per_country)
    trainlib.check_equal(total, db.execute("SELECT count(*) FROM author").fetchone()[0], "countries add up")
    unremarked = db.execute("SELECT count(*) FROM article WHERE id NOT IN (SELECT article_id FROM remark)").fetchone()[0]
    series = db.execute("WITH RECURSIVE n(k) AS (SELECT 1 UNION ALL SELECT k + 1 FROM n WHERE k < 500) "
                        "SELECT sum(k * k) FROM n").fetchone()[0]
    trainlib.check_equal(series, 500 * 501 * 1001 // 6, "recursive CTE")
    return top[:3], per_country, unremarked


def python_callbacks(db):
    db.create_function("slug", 1, slugify, deterministic=True)
    db.create_aggregate("spread", 1, Spread)
    slugs = db.execute("SELECT slug(title) FROM article ORDER BY id LIMIT 50").fetchall()
    trainlib.check(all(" " not in s for (s,) in slugs), "slugs have no spaces")
    spread = db.execute("SELECT author_id, spread(words) FROM article GROUP BY author_id ORDER BY author_id").fetchall()
    trainlib.check(all(s is None or s >= 0 for _, s in spread), "spread is not negative")
    db.create_collation("backwards", lambda a, b: (a < b) - (a > b))
    last = db.execute("SELECT handle FROM author ORDER BY handle COLLATE backwards LIMIT 1").fetchone()[0]
    trainlib.check_equal(last, db.execute("SELECT max(handle) FROM author").fetchone()[0], "reverse collation")
    return slugs[:2], len(spread), last


def rows_and_transactions(sqlite3, db):
    db.row_factory = sqlite3.Row
    rows = db.execute("SELECT id, title, score, body FROM article WHERE words > ? ORDER BY id", (2500,)).fetchall()
    trainlib.check(all(r["id"] == r[0] and isinstance(r["body"], bytes) for r in rows), "Row by name and index")
    db.row_factory = lambda cursor, row: {d[0]: v for d, v in zip(cursor.description, row)}
    dicts = db.execute("SELECT handle, joined FROM author LIMIT 20").fetchall()
    before = db.execute("SELECT count(*) AS n FROM remark").fetchone()["n"]
    try:
        with db:
            db.execute("DELETE FROM remark WHERE stars < 3")
            db.execute("INSERT INTO remark (article_id, author_id, stars) VALUES (1, 1, 9)")
    except sqlite3.IntegrityError:
        pass
    after = db.execute("SELECT count(*) AS n FROM remark").fetchone()["n"]
    trainlib.check_equal(after, before, "rolled back")
    try:
        db.execute("INSERT INTO author (handle) VALUES ('writer_1')")
        trainlib.check(False, "duplicate handle accepted")
    except sqlite3.IntegrityError:
        pass
    cursor = db.cursor()
    cursor.execute("UPDATE article SET score = score / 2 WHERE words < 1000")
    changed = cursor.rowcount
    db.commit()
    db.row_factory = None
    dump = list(db.iterdump())
    trainlib.check(any(line.startswith("CREATE INDEX") for line in dump), "dump has the indexes")
    inserts = sum(1 for line in dump if line.startswith("INSERT"))  # other lines vary between versions
    return len(rows), dicts[:2], changed, inserts


def main(scale):
    sqlite3 = trainlib.optional_module("sqlite3")
    if sqlite3 is None:
        return trainlib.finish(NAME, ["no sqlite3 module"])
    rng = Random(1521)
    results = []
    for _ in range(trainlib.reps(8, scale)):
        db = sqlite3.connect(":memory:")
        try:
            results.append(populate(db, rng, 300, 3000, 9000))
            results.append(lookups(db, rng, 300, 4000))
            results.append(reports(db))
            results.append(python_callbacks(db))
            results.append(rows_and_transactions(sqlite3, db))
        finally:
            db.close()
    return trainlib.finish(NAME, [repr(r) for r in results])


if __name__ == "__main__":
    sys.exit(main(trainlib.scale_argument()))
