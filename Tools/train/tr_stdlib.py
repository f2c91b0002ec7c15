"""Imitates the glue code of a command-line deployment tool: it parses many command lines with
argparse (subcommands, types, choices, counters, mutually exclusive options, errors), splits
and quotes shell words with shlex, reads layered INI settings with configparser, builds and
re-parses notification e-mails with the email package, rewrites URLs with urllib.parse,
compares configuration versions with difflib, logs through logging to an io.StringIO handler
(formatters, filters, adapters, a logger hierarchy), manages resources with contextlib
(contextmanager, ExitStack, suppress, redirect_stdout), and handles failures with try/except/
finally, exception chaining and traceback.format_exception.  Interpreter paths: large pure-
Python stdlib modules (argparse, configparser, email, logging, difflib), keyword arguments,
exception creation, chaining and unwinding, generator-based context managers.
"""
import argparse
import configparser
import contextlib
import difflib
import email.message
import email.parser
import email.policy
import io
import logging
import re
import shlex
import sys
import traceback
from urllib.parse import parse_qs, parse_qsl, quote, unquote, urlencode, urljoin, urlsplit, urlunsplit

import trainlib

NAME = "tr_stdlib"


class UsageError(Exception):
    pass


class QuietParser(argparse.ArgumentParser):
    """Raises instead of printing usage to stderr and exiting."""

    def error(self, message):
        raise UsageError(message)


def build_cli():
    cli = QuietParser(prog="deploy", description="Deploy services to environments.")
    cli.add_argument("-v", "--verbose", action="count", default=0)
    cli.add_argument("--config", default="deploy.ini", metavar="FILE")
    mode = cli.add_mutually_exclusive_group()
    mode.add_argument("--dry-run", action="store_true")
    mode.add_argument("--force", action="store_true")
    sub = cli.add_subparsers(dest="command", required=True)
    push = sub.add_parser("push", help="push a release")
    push.add_argument("service")
    push.add_argument("--env", choices=["dev", "staging", "prod"], default="dev")
    push.add_argument("--replicas", type=int, default=1)
    push.add_argument("--tag", action="append", default=[])
    push.add_argument("--timeout", type=float, default=30.0)
    rollback = sub.add_parser("rollback")
    rollback.add_argument("service")
    rollback.add_argument("steps", nargs="?", type=int, default=1)
    status = sub.add_parser("status")
    status.add_argument("services", nargs="*")
    status.add_argument("--format", choices=["text", "json"], default="text")
    return cli


COMMAND_LINES = [
    "push api --env prod --replicas 3 --tag blue --tag 'release 2.1'",
    "-vv --dry-run push web",
    "--force rollback api 2",
    "status api web worker --format json",
    "status",
    "-v --config '/etc/deploy/my deploy.ini' push 'svc name' --timeout 2.5",
    "push api --env moon",
    "--dry-run --force status",
    "rollback api two",
    "push",
    "frobnicate now",
    "push api --replicas=7 --env=staging",
]


def cli_workout(rounds):
    cli = build_cli()
    outcomes = []
    for _ in range(rounds):
        for line in COMMAND_LINES:
            argv = shlex.split(line)
            try:
                ns = cli.parse_args(argv)
            except UsageError as exc:
                # only what the message is about: its wording varies between Python versions
                outcomes.append(("error", str(exc).split(":")[0]))
                continue
            outcomes.append(tuple(sorted((k, v if not isinstance(v, list) else tuple(v)) for k, v in vars(ns).items())))
            trainlib.check_equal(shlex.split(shlex.join(argv)), argv, "shlex join/split")
    help_text = cli.format_help()
    trainlib.check("push" in help_text and "--verbose" in help_text, "help text")
    quoted = [shlex.quote(s) for s in ("plain", "with space", "it's", "$HOME", "")]
    lexer = shlex.shlex("a=1 b='two words' # comment", posix=True)
    lexer.whitespace_split = True
    return outcomes[:len(COMMAND_LINES)], len(outcomes), quoted, list(lexer)


INI_BASE = """
[DEFAULT]
region = eu-west
home = /srv/%(region)s

[service:api]
port = 8080
workers = 4
debug = no
path = %(home)s/api

[service:web]
port = 80
debug = yes
greeting = Grüß Gott
"""

INI_OVERRIDE = """
[service:api]
workers = 8

[service:worker]
queue = jobs
"""


def config_workout(rounds):
    seen = []
    for i in range(rounds):
        cfg = configparser.ConfigParser()
        cfg.read_string(INI_BASE)
        cfg.read_string(INI_OVERRIDE)
        cfg["service:api"]["port"] = str(8080 + i % 3)
        api = cfg["service:api"]
        seen.append((api.getint("port"), api.getint("workers"), api.getboolean("debug"), api["path"],
                     cfg.getboolean("service:web", "debug"), cfg.get("service:worker", "queue"),
                     cfg.get("service:web", "missing", fallback="none")))
        out = io.StringIO()
        cfg.write(out)
        again = configparser.ConfigParser(interpolation=None)
        again.read_string(out.getvalue())
        trainlib.check_equal(again.sections(), cfg.sections(), "configparser round trip")
        trainlib.check_equal(again["service:api"]["path"], "%(home)s/api", "raw value kept")
    return seen[:3], len(seen)


def email_workout(rounds, services):
    subjects = []
    for i in range(rounds):
        msg = email.message.EmailMessage()
        msg["From"] = "Deploy Bot <deploy@example.com>"
        msg["To"] = ", ".join("%s-team@example.com" % s for s in services[: 1 + i % len(services)])
        msg["Subject"] = "Release %d of %s: done ✓" % (i, services[i % len(services)])
        msg["X-Release"] = str(i)
        msg.set_content("Hello,\n\nrelease %d went out to %d replicas.\nRésumé attached.\n" % (i, i % 5 + 1))
        msg.add_attachment(("line %d\n" % i * 20).encode(), maintype="text", subtype="plain", filename="log.txt")
        # A fixed MIME boundary: the generator would draw one from the unseeded module-level
        # random generator, and its digits would make each run do different work.
        msg.set_boundary("=====profopt-train-%04d=====" % i)
        raw = msg.as_bytes()
        back = email.parser.BytesParser(policy=email.policy.default).parsebytes(raw)
        trainlib.check_equal(str(back["Subject"]), str(msg["Subject"]), "e-mail subject round trip")
        body = back.get_body(preferencelist=("plain",)).get_content()
        trainlib.check("Résumé" in body, "e-mail body round trip")
        attachments = [part.get_filename() for part in back.iter_attachments()]
        trainlib.check_equal(attachments, ["log.txt"], "attachments")
        subjects.append((str(back["Subject"]), back["X-Release"], len(back["To"].addresses)))
    return subjects[:3], len(subjects)


def url_workout(rounds):
    base = "https://deploy.example.com/api/v2/services/"
    results = []
    for i in range(rounds):
        query = urlencode({"env": "prod", "tag": ["blue", "rel %d" % i], "q": "naïve & co"}, doseq=True)
        url = urljoin(base, "api/status?" + query + "#frag%d" % i)
        parts = urlsplit(url)
        params = parse_qs(parts.query)
        trainlib.check_equal(params["q"], ["naïve & co"], "query round trip")
        trainlib.check_equal(params["tag"][1], "rel %d" % i, "repeated parameters")
        rebuilt = urlunsplit(parts._replace(path=parts.path.replace("status", "health"), fragment=""))
        escaped = quote("/path with/ünïcode?%d" % i, safe="/")
        trainlib.check_equal(unquote(escaped), "/path with/ünïcode?%d" % i, "quote/unquote")
        results.append((parts.netloc, parts.path, rebuilt, urljoin(url, "../../v1/"), parse_qsl(parts.query)[:2]))
    return results[:2], len(results)


CONFIG_V1 = ["[api]", "port = 8080", "workers = 4", "debug = no", "", "[web]", "port = 80", "root = /srv/www"]


def diff_workout(rounds):
    ratios = []
    diffs = []
    for i in range(rounds):
        v2 = list(CONFIG_V1)
        v2[2] = "workers = %d" % (4 + i % 5)
        v2.insert(4, "timeout = %d" % (30 + i))
        if i % 3 == 0:
            del v2[-1]
        diff = list(difflib.unified_diff(CONFIG_V1, v2, "deploy.ini@v1", "deploy.ini@v2", lineterm="", n=1))
        diffs.append(len(diff))
        matcher = difflib.SequenceMatcher(None, "\n".join(CONFIG_V1), "\n".join(v2))
        ratios.append(round(matcher.ratio(), 6))
        ops = [tag for tag, *_ in matcher.get_opcodes()]
        trainlib.check("equal" in ops, "opcodes")
    close = difflib.get_close_matches("workres", ["workers", "worker", "port", "root", "debug"], n=2)
    trainlib.check_equal(close[0], "workers", "close matches")
    return ratios[:5], sum(diffs), close


class FixedClock:
    """Stands in for the time module inside logging: every LogRecord reads the clock, and
    the work then depends on it (its milliseconds are a cached small int below 256 and a
    newly allocated one above), so two trainings would not count the same work."""

    @staticmethod
    def time():
        return 1700000000.125

    @staticmethod
    def time_ns():
        return 1700000000125000000


def logging_workout(records):
    real_time, logging.time = logging.time, FixedClock
    try:
        return logging_records(records)
    finally:
        logging.time = real_time


def logging_records(records):
    stream = io.StringIO()
    handler = logging.StreamHandler(stream)
    handler.setFormatter(logging.Formatter("%(levelname)-7s %(name)s [%(component)s] %(message)s"))

    class NoHealthChecks(logging.Filter):
        def filter(self, record):
            return "healthcheck" not in record.getMessage()

    handler.addFilter(NoHealthChecks())
    root = logging.getLogger("deploy")
    root.setLevel(logging.DEBUG)
    root.propagate = False
    root.handlers[:] = [handler]
    child = logging.getLogger("deploy.push")
    adapter = logging.LoggerAdapter(child, {"component": "push"})
    levels = [logging.DEBUG, logging.INFO, logging.WARNING, logging.ERROR]
    for i in range(records):
        if i % 10 == 0:
            adapter.info("healthcheck %d ok", i)
        adapter.log(levels[i % 4], "step %d of %s: %s", i, "release", "done" if i % 3 else "retrying")
        if i % 250 == 0:
            try:
                raise RuntimeError("replica %d crashed" % i)
            except RuntimeError:
                adapter.exception("push failed")
        if i % 100 == 0:
            child.setLevel(logging.INFO if child.level != logging.INFO else logging.DEBUG)
    child.setLevel(logging.NOTSET)
    root.handlers[:] = []
    lines = stream.getvalue().splitlines()
    trainlib.check(not any("healthcheck" in line for line in lines), "logging filter")
    heads = [line for line in lines if re.match(r"(DEBUG|INFO|WARNING|ERROR) ", line)]
    counts = {}
    for line in heads:
        counts[line.split()[0]] = counts.get(line.split()[0], 0) + 1
    return sorted(counts.items()), heads[:3]


class DeployError(Exception):
    pass


@contextlib.contextmanager
def acquired(journal, name):
    journal.append("+" + name)
    try:
        yield name
    finally:
        journal.append("-" + name)


def failing_step(i):
    try:
        {"a": 1}["step%d" % i]
    except KeyError as exc:
        raise DeployError("step %d failed" % i) from exc


def exceptions_workout(rounds):
    journal = []
    summaries = []
    for i in range(rounds):
        with contextlib.ExitStack() as stack:
            for name in ("lock", "tmpdir", "session")[: 1 + i % 3]:
                stack.enter_context(acquired(journal, name))
            stack.callback(journal.append, "cleanup%d" % (i % 2))
            try:
                if i % 4 == 0:
                    failing_step(i)
                elif i % 4 == 1:
                    try:
                        int("not a number")
                    except ValueError:
                        raise DeployError("bad replicas")  # implicit chaining via __context__
                else:
                    journal.append("ok")
            except DeployError as exc:
                chained = exc.__cause__ or exc.__context__
                text = traceback.format_exception(type(exc), exc, exc.__traceback__)
                # only the exception lines: file paths and source markers differ between versions
                finals = [line.strip() for line in "".join(text).splitlines() if re.match(r"\w+(Error|Exception): ", line)]
                summaries.append((type(chained).__name__, exc.__suppress_context__, finals))
            finally:
                journal.append("finally")
        with contextlib.suppress(ZeroDivisionError):
            journal.append(str(1 // (i % 2)))
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        print("captured", len(journal))
    with contextlib.nullcontext(journal) as same:
        trainlib.check(same is journal, "nullcontext")
    trainlib.check_equal(journal.count("+lock"), journal.count("-lock"), "every resource released")
    return summaries[:3], len(summaries), journal[:12], out.getvalue()


def main(scale):
    services = ["api", "web", "worker", "cron"]
    results = (cli_workout(trainlib.reps(72, scale)), config_workout(trainlib.reps(290, scale)),
               email_workout(trainlib.reps(144, scale), services), url_workout(trainlib.reps(1440, scale)),
               diff_workout(trainlib.reps(720, scale)), logging_workout(trainlib.reps(9600, scale)),
               exceptions_workout(trainlib.reps(2400, scale)))
    return trainlib.finish(NAME, results)


if __name__ == "__main__":
    sys.exit(main(trainlib.scale_argument()))
