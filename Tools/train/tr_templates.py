"""Imitates a report generator (the back end of a static-site or e-mail report tool): it renders
sales data to HTML with a tiny {{ variable }} / {% for %} / {% if %} template engine built on
re.sub callbacks, to plain text with string.Template, str.format and format_map with rich
format specs, wraps paragraphs with textwrap, escapes untrusted text with html.escape, builds
pages in io.StringIO and with str.join of many pieces, and dumps its context with
pprint.pformat.  Interpreter paths: the format mini-language for ints, floats and strings,
str.join and StringIO writes, regex substitution with Python callbacks, dict lookups by
dotted names, string slicing and concatenation.
"""
import html
import io
import math
import pprint
import re
import string
import sys
import textwrap
from random import Random

import trainlib

NAME = "tr_templates"

REGIONS = ["Nord", "Süd", "Île-de-France", "Ōsaka", "São Paulo", "Dublin & Cork", "<script>"]
PRODUCTS = ["tea \"green\"", "coffee", "crème brûlée", "bread & butter", "jam <strawberry>", "oat milk"]
LOREM = ("Quarterly numbers were driven by the new stores, by a wet summer that favoured hot "
         "drinks, and by a loyalty programme whose effect is still being measured; the figures "
         "below are provisional and will be revised once the returns are booked. ")

PAGE = """<!DOCTYPE html>
<html><head><title>{{ title }}</title></head>
<body>
<h1>{{ title }}</h1>
<p class="intro">{{ intro }}</p>
{% for region in regions %}<section id="{{ region.slug }}">
<h2>{{ region.name }}</h2>
<table>
{% for row in region.rows %}<tr><td>{{ row.product }}</td><td class="n">{{ row.units }}</td><td class="n">{{ row.revenue }}</td></tr>
{% endfor %}</table>
{% if region.best %}<p>Best seller: {{ region.best }}</p>{% endif %}
</section>
{% endfor %}<footer>{{ footer }}</footer>
</body></html>
"""

OPEN_RE = re.compile(r"\{%\s*(?:for (\w+) in ([\w.]+)|if ([\w.]+))\s*%\}")
CLOSE_RE = re.compile(r"\{%\s*end(?:for|if)\s*%\}")
VAR_RE = re.compile(r"\{\{\s*([\w.]+)\s*\}\}")


def resolve(context, dotted):
    value = context
    for part in dotted.split("."):
        value = value[part] if isinstance(value, dict) else getattr(value, part)
    return value


def substitute_vars(text, context):
    return VAR_RE.sub(lambda m: html.escape(str(resolve(context, m.group(1)))), text)


def matching_end(template, pos):
    """Where the block opened just before `pos` ends: counts nested {% for/if %} blocks."""
    depth = 1
    while True:
        o = OPEN_RE.search(template, pos)
        c = CLOSE_RE.search(template, pos)
        if c is None:
            raise ValueError("unclosed block")
        if o is not None and o.start() < c.start():
            depth += 1
            pos = o.end()
        else:
            depth -= 1
            if depth == 0:
                return c.start(), c.end()
            pos = c.end()


def render(template, context):
    """Renders the outermost blocks (recursively, with the loop variable bound) and the
    {{ variables }} between them, HTML-escaped."""
    out = []
    pos = 0
    while True:
        m = OPEN_RE.search(template, pos)
        if m is None:
            break
        out.append(substitute_vars(template[pos:m.start()], context))
        body_end, pos = matching_end(template, m.end())
        body = template[m.end():body_end]
        loop_var, seq_name, cond_name = m.groups()
        if cond_name:
            if resolve(context, cond_name):
                out.append(render(body, context))
        else:
            for item in resolve(context, seq_name):
                out.append(render(body, dict(context, **{loop_var: item})))
    out.append(substitute_vars(template[pos:], context))
    return "".join(out)


def anchor_id(text):
    kept = [ch.lower() if ch.isalnum() else "-" for ch in text]
    return re.sub("-+", "-", "".join(kept)).strip("-")


def make_sales(rng):
    regions = []
    for name in REGIONS:
        rows = []
        for product in PRODUCTS:
            units = rng.randrange(0, 5000)
            price = rng.randrange(150, 2500) / 100
            rows.append({"product": product, "units": units, "price": price, "revenue": units * price})
        regions.append({"name": name, "slug": anchor_id(name), "rows": rows})
    return regions


def html_report(regions, title):
    ctx_regions = []
    for region in regions:
        rows = [{"product": r["product"], "units": "{:,d}".format(r["units"]),
                 "revenue": "{:>12,.2f}".format(r["revenue"])} for r in region["rows"]]
        best = max(region["rows"], key=lambda r: (r["revenue"], r["product"]))
        ctx_regions.append({"name": region["name"], "slug": region["slug"], "rows": rows,
                            "best": best["product"] if best["revenue"] > 0 else ""})
    context = {"title": title, "intro": LOREM[:120], "regions": ctx_regions, "footer": "© Example & Co."}
    page = render(PAGE, context)
    return page, context


def text_report(regions, width):
    out = io.StringIO()
    header = string.Template("Sales report for $period -- ${count} regions, prepared by $$team\n")
    out.write(header.substitute(period="Q3", count=len(regions)))
    out.write(string.Template("Unknown fields stay: $missing and ${also}\n").safe_substitute(also="filled"))
    out.write(textwrap.fill(LOREM * 2, width=width, initial_indent="  ", subsequent_indent="  ") + "\n\n")
    line = "{name:<16.16}|{units:>9,d}|{revenue:>14,.2f}|{share:>7.1%}|{flag:^5}|\n"
    # math.fsum: sum() of floats is more exact since Python 3.12, and the report must not change
    grand = math.fsum(r["revenue"] for region in regions for r in region["rows"])
    for region in regions:
        out.write("{:=^60}\n".format(" %s " % region["name"]))
        for r in sorted(region["rows"], key=lambda r: (-r["revenue"], r["product"])):
            out.write(line.format_map({"name": r["product"], "units": r["units"], "revenue": r["revenue"],
                                       "share": r["revenue"] / grand if grand else 0,
                                       "flag": "*" if r["units"] > 4000 else ""}))
        total = math.fsum(r["revenue"] for r in region["rows"])
        out.write("%-16s|%9d|%14.2f|\n" % ("total", sum(r["units"] for r in region["rows"]), total))
        out.write(f"{'average price':<16}|{'':>9}|{total / max(1, sum(r['units'] for r in region['rows'])):>14.4f}|\n")
    notes = textwrap.wrap(LOREM, width=width // 2, break_long_words=False)
    out.write(textwrap.indent("\n".join(notes), "> ") + "\n")
    out.write(textwrap.shorten(LOREM, width=60, placeholder=" [...]") + "\n")
    out.write(textwrap.dedent("""\
        Signed:
            the reporting robot
        """))
    out.write("{0!r} {0!s} {1:#x} {1:#o} {1:#b} {2:+.3e} {3:08.3f} {4:%Y}\n".format(
        "naïve", 2023, grand, -3.14159, _FakeDate()))
    return out.getvalue(), grand


class _FakeDate:
    """An object with __format__, as date types have."""

    def __format__(self, spec):
        return spec.replace("%Y", "2023").replace("%m", "09")


def csv_like_lines(regions):
    # many small pieces joined once, the usual way to build large strings
    pieces = []
    for region in regions:
        for r in region["rows"]:
            pieces.append(",".join((region["slug"], r["product"].replace(",", ";"), str(r["units"]),
                                    repr(round(r["revenue"], 2)))))
    return "\n".join(pieces)


def main(scale):
    rng = Random(1234)
    results = []
    for rep in range(trainlib.reps(1000, scale)):
        regions = make_sales(rng)
        page, context = html_report(regions, "Sales <Q3> & \"friends\"")
        trainlib.check("<script>" not in page and "&lt;script&gt;" in page, "untrusted text is escaped")
        trainlib.check_equal(page.count("<tr>"), len(REGIONS) * len(PRODUCTS), "table rows")
        trainlib.check_equal(page.count("<section"), len(REGIONS), "sections")
        trainlib.check_equal(html.unescape(html.escape(PRODUCTS[4] + REGIONS[5])), PRODUCTS[4] + REGIONS[5],
                             "escape round trip")
        text, grand = text_report(regions, 72 - rep % 20)
        trainlib.check(all(len(line) <= 72 for line in text.splitlines() if line.startswith("  ")), "wrapped")
        trainlib.check("$team" in text and "$missing" in text, "Template escapes and safe_substitute")
        lines = csv_like_lines(regions)
        trainlib.check_equal(lines.count("\n") + 1, len(REGIONS) * len(PRODUCTS), "CSV-like lines")
        dumped = pprint.pformat(context["regions"][:2], width=100, sort_dicts=True)
        trainlib.check(dumped.startswith("[{") and "'rows'" in dumped, "pformat")
        results.append((trainlib.checksum(page), trainlib.checksum(text), round(grand, 2), len(dumped)))
    return trainlib.finish(NAME, results)


if __name__ == "__main__":
    sys.exit(main(trainlib.scale_argument()))
