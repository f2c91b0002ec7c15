# t0140-train-workload.sh - profopt's own PGO training workload (Tools/train/tr_*.py): every
# task runs and checks itself, is deterministic, agrees across CPython versions, cleans up
# after itself, and is disjoint from the benchmark suite (Tools/bench).

TRAIN=$SRCDIR/Tools/train
SMALL=0.05
# No .pyc files in the source tree, and compiled-or-cached must not vary between runs.
export PYTHONDONTWRITEBYTECODE=1

# PY: the CPython 3.11 (or any python3) that runs the tasks, or a skip.
train_python() {
	PY=/usr/bin/python3.11
	[ -x "$PY" ] || PY=$(command -v python3.11 || command -v python3 || true)
	[ -n "$PY" ] && [ -x "$PY" ] || skip "no python3 interpreter"
}

# PY13: a working CPython 3.13 ($PYTHON313, python3.13 on PATH, or pyenv's), or empty.  A
# pyenv shim on PATH that is not activated exists but does not run: it must answer.
python313() {
	local c
	PY13=
	for c in "${PYTHON313:-}" "$(command -v python3.13 || true)" "$HOME"/.pyenv/versions/3.13*/bin/python3.13; do
		[ -n "$c" ] && [ -x "$c" ] || continue
		if [ "$("$c" -c 'import sys; print(sys.version_info[:2] == (3, 13))' 2>/dev/null)" = True ]; then
			PY13=$c
			return 0
		fi
	done
}

tasks() {
	local f
	for f in "$TRAIN"/tr_*.py "$TRAIN"/ft_*.py; do [ -f "$f" ] && basename "$f" .py; done
}

# run_task PYTHON NAME [HASHSEED]: runs a task at the small scale in ./run-NAME (a fresh
# directory, so tr_files' scratch directory is private), checks its exit status and its
# one line of output, and prints the checksum.
run_task() {
	local py=$1 name=$2 seed=${3:-0} out
	mkdir -p "run-$name"
	out=$(cd "run-$name" && PYTHONHASHSEED=$seed "$py" "$TRAIN/$name.py" "$SMALL" 2>&1) ||
		fail "$name.py ($py, PYTHONHASHSEED=$seed) exited $?: $out"
	expect_match "$out" "^$name: ok [0-9a-f]{16}\$"
	[ "$(printf '%s\n' "$out" | wc -l)" -eq 1 ] || fail "$name.py printed more than one line: $out"
	printf '%s\n' "${out##* }"
}

test_every_task_runs_and_says_ok() {
	train_python
	local n=0 name
	for name in $(tasks); do
		run_task "$PY" "$name" > /dev/null
		n=$((n + 1))
	done
	[ "$n" -ge 12 ] || fail "only $n training tasks in $TRAIN"
	# the README names every task
	for name in $(tasks); do
		expect_contains "$TRAIN/README" "$name\\.py"
	done
}

test_checksums_do_not_depend_on_the_run_or_the_hash_seed() {
	train_python
	local name a b c
	for name in $(tasks); do
		a=$(run_task "$PY" "$name" 0)
		b=$(run_task "$PY" "$name" 0)
		c=$(run_task "$PY" "$name" 4242)
		expect_eq "$b" "$a" "$name: second run with PYTHONHASHSEED=0"
		expect_eq "$c" "$a" "$name: run with PYTHONHASHSEED=4242"
	done
}

# Two runs do the same work, not only compute the same result: the same Python and C
# functions are called the same number of times (counted with sys.setprofile).
test_two_runs_make_the_same_calls() {
	train_python
	cat > calls.py <<'EOF'
import collections, hashlib, runpy, sys
script = sys.argv[1]
counts = collections.Counter()
def count(frame, event, arg):
    if event == "call":
        counts[(frame.f_code.co_filename, frame.f_code.co_name, frame.f_code.co_firstlineno)] += 1
    elif event == "c_call":
        counts[("C", getattr(arg, "__module__", None) or "", getattr(arg, "__qualname__", ""))] += 1
sys.argv = sys.argv[1:]
sys.path.insert(0, script.rsplit("/", 1)[0])
sys.setprofile(count)
try:
    runpy.run_path(script, run_name="__main__")
finally:
    sys.setprofile(None)
    print(sum(counts.values()), hashlib.sha256(repr(sorted(counts.items())).encode()).hexdigest()[:16], file=sys.stderr)
EOF
	local name a b
	for name in $(tasks); do
		mkdir -p "run-$name"
		a=$(cd "run-$name" && PYTHONHASHSEED=0 "$PY" ../calls.py "$TRAIN/$name.py" 0.02 2>&1 >/dev/null | tail -n 1)
		b=$(cd "run-$name" && PYTHONHASHSEED=0 "$PY" ../calls.py "$TRAIN/$name.py" 0.02 2>&1 >/dev/null | tail -n 1)
		expect_match "$a" '^[0-9]+ [0-9a-f]{16}$'
		expect_eq "$b" "$a" "$name: calls made by two runs (count, digest)"
	done
}

test_checksums_agree_between_3_11_and_3_13() {
	train_python
	python313
	[ -n "$PY13" ] || skip "no working python3.13 (set PYTHON313=/path/to/python3.13)"
	[ "$("$PY" -c 'import sys; print(sys.version_info[:2] < (3, 13))')" = True ] || skip "$PY is not older than 3.13"
	local name a b
	for name in $(tasks); do
		a=$(run_task "$PY" "$name")
		b=$(run_task "$PY13" "$name")
		expect_eq "$b" "$a" "$name: checksum on $PY13 vs $PY"
	done
}

test_scale_argument() {
	train_python
	expect_status 2 "$PY" "$TRAIN/tr_logs.py" -1
	expect_contains out 'usage: tr_logs.py \[SCALE\]'
	expect_status 2 "$PY" "$TRAIN/tr_logs.py" lots
	expect_status 2 "$PY" "$TRAIN/tr_logs.py" 0
	expect_status 2 "$PY" "$TRAIN/tr_logs.py" nan
	expect_status 2 "$PY" "$TRAIN/tr_logs.py" 0.1 0.2
	# a different scale is a different amount of work, hence another checksum
	a=$(run_task "$PY" tr_logs)
	b=$(SMALL=0.02; run_task "$PY" tr_logs)
	[ "$a" != "$b" ] || fail "SCALE changed nothing"
}

test_failed_checks_exit_nonzero_with_a_message() {
	train_python
	# trainlib's helpers directly: a failing check exits 1 with the message, and no
	# `except Exception` in a task can swallow it
	cat > fails.py <<'EOF'
import sys
sys.path.insert(0, sys.argv[1])
import trainlib
trainlib.check(2 + 2 == 4, "passing check")
trainlib.check_equal([1, 2], [1, 2], "passing equality")
if sys.argv[2] == "check":
    trainlib.check(1 > 2, "one is not more than two")
try:
    trainlib.check_equal(1 + 1, 3, "arithmetic")
except Exception:
    print("swallowed")
    sys.exit(0)
EOF
	expect_status 1 "$PY" fails.py "$TRAIN" check
	expect_contains out '^fails: check failed: one is not more than two$'
	expect_status 1 "$PY" fails.py "$TRAIN" equal
	expect_contains out '^fails: check failed: arithmetic: got 2, expected 3$'
	expect_not_contains out swallowed
	# a real task whose known answer is made wrong fails its self-check
	cat > wrong.py <<'EOF'
import sys
sys.path.insert(0, sys.argv[1])
import tr_interpreter
label, source, _ = tr_interpreter.PROGRAMS[0]
tr_interpreter.PROGRAMS[0] = (label, source, lambda params: ["not the answer"])
sys.exit(tr_interpreter.main(0.05))
EOF
	expect_status 1 "$PY" wrong.py "$TRAIN"
	expect_contains out 'check failed: program recursion: got .*expected \[.not the answer.\]'
	expect_not_contains out 'tr_interpreter: ok'
	expect_not_contains out Traceback
}

test_files_scratch_directory_is_removed() {
	train_python
	mkdir -m 755 cwd
	# a leftover of a killed run is replaced, then everything is removed
	mkdir -p cwd/train-scratch-files/stale && echo old > cwd/train-scratch-files/stale/file
	out=$(cd cwd && PYTHONHASHSEED=0 "$PY" "$TRAIN/tr_files.py" "$SMALL" 2>&1) || fail "tr_files failed: $out"
	expect_match "$out" '^tr_files: ok [0-9a-f]{16}$'
	[ -z "$(ls -A cwd)" ] || fail "tr_files left files behind: $(ls -A cwd)"
	# on error too: a step that raises in the middle of the work
	cat > crash.py <<'EOF'
import os, sys
sys.path.insert(0, sys.argv[1])
import tr_files
def broken(root, count):
    assert os.path.isdir(os.path.join(os.getcwd(), "train-scratch-files")), "scratch is in the current directory"
    assert os.listdir(os.path.join(os.getcwd(), "train-scratch-files")), "and in use"
    raise RuntimeError("disk on fire")
tr_files.rotate_logs = broken
tr_files.main(0.05)
EOF
	(cd cwd && expect_status 1 "$PY" ../crash.py "$TRAIN" && expect_contains out 'RuntimeError: disk on fire')
	[ -z "$(ls -A cwd | grep -v '^out$')" ] || fail "tr_files left files behind after an error: $(ls -A cwd)"
	# a current directory the task cannot write to: the scratch goes to $TMPDIR (root writes anywhere)
	if [ "$(id -u)" != 0 ]; then
		mkdir -m 555 ro && mkdir tmp
		out=$(cd ro && TMPDIR=$PWD/../tmp "$PY" "$TRAIN/tr_files.py" "$SMALL" 2>&1) || fail "tr_files in a read-only directory: $out"
		[ -z "$(ls -A tmp)" ] || fail "tr_files left files in TMPDIR: $(ls -A tmp)"
		chmod 755 ro
	fi
}

test_tasks_follow_the_rules() {
	train_python
	# parsed, not run: structure, and nothing that makes the work vary between runs
	"$PY" - "$TRAIN" <<'EOF' || fail "a training task breaks the rules (above)"
import ast, os, sys
train = sys.argv[1]
forbidden_modules = {"threading", "subprocess", "multiprocessing", "socket", "tempfile", "time", "uuid",
                     "secrets", "concurrent", "urllib.request", "http.client", "ssl", "signal", "tkinter"}
# a free-threaded build's task (ft_*.py) runs threads; its work per thread is fixed
threads_allowed = {"threading", "queue", "concurrent"}
forbidden_calls = {"id", "urandom", "getpid", "time", "perf_counter", "monotonic", "now", "utcnow", "today",
                   "mkdtemp", "mkstemp", "SystemRandom", "input"}
bad = []
for f in sorted(os.listdir(train)):
    if not f.endswith(".py"):
        continue
    tree = ast.parse(open(os.path.join(train, f), encoding="utf-8").read(), f)
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            names = [a.name for a in node.names]
        elif isinstance(node, ast.ImportFrom):
            names = [node.module or ""] + ["%s.%s" % (node.module, a.name) for a in node.names]
        else:
            names = []
        for name in names:
            top = name.split(".")[0]
            if f.startswith("ft_") and top in threads_allowed:
                continue
            if name in forbidden_modules or top in forbidden_modules:
                bad.append("%s:%d imports %s" % (f, node.lineno, name))
            if name.startswith("random.") and name != "random.Random":
                bad.append("%s:%d imports %s: only seeded random.Random instances" % (f, node.lineno, name))
        if isinstance(node, ast.Attribute) and isinstance(node.value, ast.Name) and node.value.id == "random" \
                and node.attr != "Random":
            bad.append("%s:%d uses the unseeded random.%s" % (f, node.lineno, node.attr))
        if isinstance(node, ast.Call):
            fn = node.func
            called = fn.id if isinstance(fn, ast.Name) else fn.attr if isinstance(fn, ast.Attribute) else ""
            if called in forbidden_calls:
                bad.append("%s:%d calls %s()" % (f, node.lineno, called))
    if not f.startswith(("tr_", "ft_")):
        continue
    if not ast.get_docstring(tree):
        bad.append("%s: no module docstring" % f)
    top = {n.name for n in tree.body if isinstance(n, ast.FunctionDef)}
    if "main" not in top:
        bad.append("%s: no main(scale)" % f)
    source = open(os.path.join(train, f), encoding="utf-8").read()
    for needed in ('NAME = "%s"' % f[:-3], "import trainlib", 'if __name__ == "__main__":',
                   "sys.exit(main(trainlib.scale_argument()))", "trainlib.finish(NAME"):
        if needed not in source:
            bad.append("%s: lacks %r" % (f, needed))
for b in bad:
    print(b)
sys.exit(1 if bad else 0)
EOF
}

test_disjoint_from_the_bench_suite() {
	train_python
	[ -d "$SRCDIR/Tools/bench" ] || skip "no Tools/bench"
	# no task reaches into the benchmark suite
	if grep -nE '(^|[^A-Za-z_])(import|from)[[:space:]]+(bm_|run([[:space:]]|$))|Tools/bench|[^A-Za-z_]bm_[A-Za-z]' "$TRAIN"/*.py; then
		fail "the training workload refers to the benchmark suite (above)"
	fi
	# no shared content: no non-trivial line (30 characters or more, imports aside), no function,
	# class or module-level name, no string literal of 12 characters or more, in any pair of a
	# training file and a benchmark.  A renamed copy of a benchmark fails this.
	disjoint "$SRCDIR/Tools/bench" "$TRAIN" || fail "shared content between Tools/bench and Tools/train (above)"
}

# disjoint BENCH_DIR TRAIN_DIR: prints what a bm_*.py and a *.py of TRAIN_DIR share; fails if anything.
disjoint() {
	"$PY" - "$1" "$2" <<'EOF'
import ast, glob, os, re, sys
COMMON = {"main", "bench", "GROUP", "NAME"}  # the entry points and markers every file has

def features(path):
    text = open(path, encoding="utf-8").read()
    tree = ast.parse(text, path)
    found = {"line": {}, "name": {}, "string": {}}
    for no, line in enumerate(text.splitlines(), 1):
        norm = " ".join(line.split())
        if len(norm) >= 30 and not re.match(r"(import|from) [\w.]+", norm):
            found["line"].setdefault(norm, no)
    defined = [(n.name, n.lineno) for n in ast.walk(tree) if isinstance(n, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef))]
    for top in tree.body:
        targets = top.targets if isinstance(top, ast.Assign) else [top.target] if isinstance(top, ast.AnnAssign) else []
        defined += [(n.id, top.lineno) for t in targets for n in ast.walk(t) if isinstance(n, ast.Name)]
    for name, no in defined:
        if name not in COMMON and not (name.startswith("__") and name.endswith("__")):
            found["name"].setdefault(name, no)
    for node in ast.walk(tree):
        if isinstance(node, ast.Constant) and isinstance(node.value, (str, bytes)) and len(node.value) >= 12:
            found["string"].setdefault(node.value, node.lineno)
    return found

bench = {p: features(p) for p in sorted(glob.glob(os.path.join(sys.argv[1], "bm_*.py")))}
train = {p: features(p) for p in sorted(glob.glob(os.path.join(sys.argv[2], "*.py")))}
assert bench and train, "nothing parsed"
shared = 0
for tp, tf in train.items():
    for bp, bf in bench.items():
        for kind in ("line", "name", "string"):
            for item in sorted(set(tf[kind]) & set(bf[kind]), key=repr):
                print("shared %s %.70r: %s:%d, %s:%d" % (kind, item, os.path.basename(tp), tf[kind][item],
                                                       os.path.basename(bp), bf[kind][item]))
                shared += 1
sys.exit(1 if shared else 0)
EOF
}

# The disjointness check itself: a benchmark copied into the workload under another name, or
# with its functions renamed, is caught; a file that shares only common words is not.
test_disjointness_check_catches_copies() {
	train_python
	mkdir bench train
	cp "$SRCDIR/Tools/bench/bm_regex.py" "$SRCDIR/Tools/bench/bm_json.py" bench/
	printf '"""An honest task."""\nimport re\n\n\ndef main(scale):\n    total = 0\n    for line in re.findall("x", "xx"):\n        total += len(line)\n    return total\n' > train/tr_own.py
	disjoint bench train > out || { cat out; fail "an unrelated task counted as a copy"; }
	cp bench/bm_regex.py train/tr_patterns.py
	expect_status 1 disjoint bench train
	expect_contains out "shared line 'LINE = re.compile.*tr_patterns\.py:[0-9]+, bm_regex\.py:[0-9]+"
	rm train/tr_patterns.py
	sed 's/def bench/def run_all/; s/LINE/ROW_RX/g; s/NUM\b/DIGITS_RX/g' bench/bm_json.py > train/tr_docs.py
	expect_status 1 disjoint bench train
	expect_contains out "shared (line|string) .*tr_docs\.py"
	expect_not_contains out "tr_own"
}
