"""sqlite3: an in-memory table of orders; inserts, an indexed lookup loop and grouped sums."""
import sqlite3

GROUP = "c-modules"

DB = sqlite3.connect(":memory:")
DB.execute("CREATE TABLE orders (id INTEGER PRIMARY KEY, customer INTEGER, cents INTEGER, region TEXT)")
DB.execute("CREATE INDEX orders_customer ON orders(customer)")
DB.executemany("INSERT INTO orders (customer, cents, region) VALUES (?, ?, ?)",
               [(r % 700, r * 31 % 9973, "r%d" % (r % 11)) for r in range(20000)])


def bench():
    got = 0
    for c in range(0, 700, 3):
        got += DB.execute("SELECT sum(cents) FROM orders WHERE customer = ?", (c,)).fetchone()[0]
    for region, total, many in DB.execute("SELECT region, sum(cents), count(*) FROM orders GROUP BY region"):
        got += total // many
    DB.executemany("INSERT INTO orders (customer, cents, region) VALUES (?, ?, 'tmp')", [(c, c) for c in range(500)])
    DB.execute("DELETE FROM orders WHERE region = 'tmp'")
    return got
