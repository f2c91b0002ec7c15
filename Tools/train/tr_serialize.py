"""Imitates the export/import layer of an order-management service: customer and order
objects go to JSON (nested, indented, sorted keys, a default= hook for dates and decimals and
an object_hook back), to pickle with every protocol from 2 to 5, to CSV through io.StringIO
with DictWriter/DictReader, and to a fixed binary record format with struct; the binary form is
then armoured with base64, compressed with zlib and checked with CRCs.  Interpreter paths: the
json and pickle C accelerators and their Python fallbacks (default=, object_hook, __reduce__,
__getstate__/__setstate__), csv, struct, bytes slicing and concatenation, attribute access.
"""
import base64
import binascii
import csv
import io
import json
import pickle
import struct
import sys
import zlib
from datetime import date
from decimal import Decimal
from random import Random

import trainlib

NAME = "tr_serialize"

FIRST = ["Ada", "Grace", "Linus", "Margaret", "Édouard", "Søren", "Aiko", "Nnamdi", "Olga", "Zoë"]
LAST = ["Lovelace", "Hopper", "Torvalds", "Hamilton", "Çelik", "Kierkegaard", "Tanaka", "Okafor", "Ivanova"]
PRODUCTS = [("SKU-%04d" % i, "Widget %s" % chr(65 + i % 26), Decimal("%d.%02d" % (1 + i % 90, i * 7 % 100)))
            for i in range(60)]


class Customer:
    def __init__(self, cid, name, email, since, tags):
        self.cid = cid
        self.name = name
        self.email = email
        self.since = since
        self.tags = tags

    def __eq__(self, other):
        return isinstance(other, Customer) and vars(self) == vars(other)

    def to_json(self):
        return {"__type__": "customer", "id": self.cid, "name": self.name, "email": self.email,
                "since": self.since, "tags": self.tags}


class OrderLine:
    __slots__ = ("sku", "quantity", "price")

    def __init__(self, sku, quantity, price):
        self.sku = sku
        self.quantity = quantity
        self.price = price

    def __eq__(self, other):
        return (self.sku, self.quantity, self.price) == (other.sku, other.quantity, other.price)

    # __slots__ classes need explicit state for pickle protocols < 2 and make it explicit here
    def __getstate__(self):
        return (self.sku, self.quantity, self.price)

    def __setstate__(self, state):
        self.sku, self.quantity, self.price = state

    def amount(self):
        return self.price * self.quantity


class Order:
    def __init__(self, oid, customer, placed, lines, note=""):
        self.oid = oid
        self.customer = customer
        self.placed = placed
        self.lines = lines
        self.note = note

    def __eq__(self, other):
        return isinstance(other, Order) and (self.oid, self.customer, self.placed, self.lines, self.note) == \
            (other.oid, other.customer, other.placed, other.lines, other.note)

    def __reduce__(self):
        # rebuilt through the constructor: exercises pickle's REDUCE path
        return (Order, (self.oid, self.customer, self.placed, self.lines, self.note))

    def total(self):
        return sum((line.amount() for line in self.lines), Decimal("0"))


def make_dataset(rng, n_customers, n_orders):
    customers = []
    for cid in range(n_customers):
        first, last = rng.choice(FIRST), rng.choice(LAST)
        customers.append(Customer(cid, f"{first} {last}", f"{first.lower()}.{last.lower()}@example.com",
                                  date(2015 + cid % 9, 1 + cid % 12, 1 + cid % 28),
                                  sorted(rng.sample(["vip", "b2b", "newsletter", "eu", "us", "late"], 2))))
    orders = []
    for oid in range(n_orders):
        lines = []
        for _ in range(rng.randrange(1, 6)):
            sku, _title, price = rng.choice(PRODUCTS)
            lines.append(OrderLine(sku, rng.randrange(1, 20), price))
        note = "" if oid % 3 else "Deliver \"after 5pm\", côté cour\nthanks"
        orders.append(Order(10000 + oid, rng.choice(customers), date(2023, 1 + oid % 12, 1 + oid % 28), lines, note))
    return customers, orders


def json_default(obj):
    if isinstance(obj, date):
        return {"__date__": obj.isoformat()}
    if isinstance(obj, Decimal):
        return {"__decimal__": str(obj)}
    if isinstance(obj, Customer):
        return obj.to_json()
    if isinstance(obj, OrderLine):
        return [obj.sku, obj.quantity, obj.price]
    if isinstance(obj, Order):
        return {"__type__": "order", "id": obj.oid, "customer": obj.customer.cid, "placed": obj.placed,
                "lines": obj.lines, "note": obj.note}
    raise TypeError("not serializable: %r" % type(obj).__name__)


def json_object_hook(d):
    if "__date__" in d:
        return date.fromisoformat(d["__date__"])
    if "__decimal__" in d:
        return Decimal(d["__decimal__"])
    if d.get("__type__") == "customer":
        return Customer(d["id"], d["name"], d["email"], d["since"], d["tags"])
    return d


def orders_from_json(doc):
    by_id = {c.cid: c for c in doc["customers"]}
    return [Order(o["id"], by_id[o["customer"]], o["placed"], [OrderLine(*line) for line in o["lines"]], o["note"])
            for o in doc["orders"]]


def json_round_trip(customers, orders):
    doc = {"version": 2, "customers": customers, "orders": orders, "generated": date(2024, 1, 1)}
    compact = json.dumps(doc, default=json_default, ensure_ascii=False, separators=(",", ":"))
    # the indented form (a human-readable export) of a sample only: with indent= the json
    # encoder runs in pure Python, and it would dominate the task
    sample = {"version": 2, "customers": customers[:8], "orders": orders[:10], "generated": doc["generated"]}
    pretty = json.dumps(sample, default=json_default, indent=2, sort_keys=True)
    back = json.loads(compact, object_hook=json_object_hook)
    trainlib.check(back["customers"] == customers, "JSON customers round trip")
    trainlib.check(orders_from_json(back) == orders, "JSON orders round trip")
    again = json.loads(pretty, object_hook=json_object_hook)
    trainlib.check_equal(json.dumps(again, default=json_default, indent=2, sort_keys=True), pretty,
                         "JSON pretty form is stable")
    # plain JSON values of several kinds, parsed with the pure-Python float/int hooks
    plain = json.loads('{"a": [1, 2.5, -3e2, true, false, null], "b": "\\u00e9\\n\\ud83d\\ude00"}',
                       parse_float=Decimal, parse_int=lambda s: int(s) * 2)
    trainlib.check_equal(plain["a"][:3], [2, Decimal("2.5"), Decimal("-3E+2")], "parse hooks")
    return len(compact), len(pretty), trainlib.checksum(pretty)


def pickle_round_trip(customers, orders):
    sizes = []
    data = {"customers": customers, "orders": orders, "index": {o.oid: o for o in orders[:50]},
            "frozen": frozenset(range(30)), "blob": bytes(range(256)) * 4, "nested": [[1, (2, [3])], {"k": None}]}
    for protocol in range(2, 6):
        blob = pickle.dumps(data, protocol=protocol)
        back = pickle.loads(blob)
        trainlib.check(back["orders"] == orders and back["customers"] == customers, "pickle protocol %d" % protocol)
        # the same customer object is shared by several orders: the memo must keep it shared
        trainlib.check(back["index"][orders[0].oid] is back["orders"][0], "pickle memo, protocol %d" % protocol)
        sizes.append(len(blob))
    buffers = []
    blob = pickle.dumps(pickle.PickleBuffer(bytearray(b"out-of-band" * 10)), protocol=5,
                        buffer_callback=buffers.append)
    trainlib.check_equal(bytes(pickle.loads(blob, buffers=buffers)), b"out-of-band" * 10, "pickle out-of-band")
    return len(sizes)


CSV_FIELDS = ["order", "customer", "email", "placed", "sku", "quantity", "price", "note"]


def csv_round_trip(orders):
    buf = io.StringIO()
    writer = csv.DictWriter(buf, fieldnames=CSV_FIELDS, quoting=csv.QUOTE_MINIMAL, lineterminator="\r\n")
    writer.writeheader()
    count = 0
    for order in orders:
        for line in order.lines:
            writer.writerow({"order": order.oid, "customer": order.customer.name, "email": order.customer.email,
                             "placed": order.placed.isoformat(), "sku": line.sku, "quantity": line.quantity,
                             "price": line.price, "note": order.note})
            count += 1
    text = buf.getvalue()
    totals = {}
    for row in csv.DictReader(io.StringIO(text, newline="")):
        amount = Decimal(row["price"]) * int(row["quantity"])
        totals[int(row["order"])] = totals.get(int(row["order"]), Decimal(0)) + amount
    for order in orders:
        trainlib.check_equal(totals[order.oid], order.total(), "CSV total of order %d" % order.oid)
    rows = list(csv.reader(io.StringIO(text, newline=""), dialect="excel"))
    trainlib.check_equal(len(rows), count + 1, "CSV row count")
    semi = io.StringIO()
    csv.writer(semi, delimiter=";", quotechar="'", quoting=csv.QUOTE_NONNUMERIC).writerows(
        [[o.oid, float(o.total()), o.customer.name] for o in orders[:200]])
    back = list(csv.reader(io.StringIO(semi.getvalue()), delimiter=";", quotechar="'",
                           quoting=csv.QUOTE_NONNUMERIC))
    trainlib.check_equal(back[0][0], float(orders[0].oid), "CSV QUOTE_NONNUMERIC")
    return count, trainlib.checksum(text)


HEADER = struct.Struct("<4sHHI")
RECORD = struct.Struct("<IHH12sqd")


def pack_orders(orders):
    parts = [HEADER.pack(b"ORDR", 1, RECORD.size, len(orders))]
    for order in orders:
        cents = int(order.total() * 100)
        parts.append(RECORD.pack(order.oid, order.customer.cid, len(order.lines), order.lines[0].sku.encode("ascii"),
                                 cents, float(cents) / 100.0))
    return b"".join(parts)


def unpack_orders(blob):
    magic, version, size, count = HEADER.unpack_from(blob, 0)
    trainlib.check(magic == b"ORDR" and version == 1 and size == RECORD.size, "binary header")
    body = memoryview(blob)[HEADER.size:]
    out = []
    for oid, cid, nlines, sku, cents, amount in RECORD.iter_unpack(body):
        out.append((oid, cid, nlines, sku.rstrip(b"\0").decode("ascii"), cents, amount))
    trainlib.check_equal(len(out), count, "binary record count")
    return out


def binary_round_trip(orders):
    blob = pack_orders(orders)
    records = unpack_orders(blob)
    for order, rec in zip(orders, records):
        trainlib.check(rec[0] == order.oid and rec[4] == int(order.total() * 100), "binary record %d" % order.oid)
    armoured = base64.b64encode(blob)
    trainlib.check_equal(base64.b64decode(armoured), blob, "base64")
    trainlib.check_equal(base64.urlsafe_b64decode(base64.urlsafe_b64encode(blob)), blob, "urlsafe base64")
    trainlib.check_equal(base64.b32decode(base64.b32encode(blob[:400])), blob[:400], "base32")
    trainlib.check_equal(base64.b85decode(base64.b85encode(blob[:400])), blob[:400], "base85")
    packed = zlib.compress(blob, 6)
    trainlib.check_equal(zlib.decompress(packed), blob, "zlib")
    stream = zlib.compressobj(9, zlib.DEFLATED, -15)
    raw = stream.compress(armoured) + stream.flush()
    unstream = zlib.decompressobj(-15)
    trainlib.check_equal(unstream.decompress(raw) + unstream.flush(), armoured, "raw deflate stream")
    hexed = binascii.hexlify(blob[:256], "-", 4)
    trainlib.check_equal(binascii.unhexlify(hexed.replace(b"-", b"")), blob[:256], "hexlify")
    return (len(blob), zlib.crc32(blob), zlib.adler32(blob), binascii.crc_hqx(blob, 0),
            binascii.crc32(armoured), base64.b64encode(blob[:60]).decode("ascii"), sum(r[4] for r in records))


def main(scale):
    rng = Random(1234)
    results = []
    for _ in range(trainlib.reps(95, scale)):
        customers, orders = make_dataset(rng, 40, 120)
        results.append((json_round_trip(customers, orders), pickle_round_trip(customers, orders),
                        csv_round_trip(orders), binary_round_trip(orders)))
    return trainlib.finish(NAME, results)


if __name__ == "__main__":
    sys.exit(main(trainlib.scale_argument()))
