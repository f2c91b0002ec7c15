# t0505: bench-builds never throws away a finished build it did not stamp (one completed by
# hand after a flaky stock training), and reads results of separate runs as one.

test_an_unstamped_finished_build_is_kept() {
	mkdir -p src/Python work/stock-best && touch src/Python/ceval.c
	printf '#!/bin/sh\necho 3.13\n' > work/stock-best/python && chmod +x work/stock-best/python
	expect_status 1 "$SRCDIR/Tools/scripts/bench-builds" --profopt="$PROFOPT" --work="$PWD/work" --source="$PWD/src" \
		--only=stock-best build
	expect_contains out 'holds a built interpreter but no stamp'
	test -x work/stock-best/python || fail "the finished interpreter was removed"
}

test_bench_compare_merges_runs_and_computes_the_headroom() {
	require python3
	mk() { # FILE NAME=VALUE...: a bench result with workloads a (python) and b (c-modules)
		f=$1; shift
		python3 - "$f" "$@" <<'PY'
import json, sys
f, pairs = sys.argv[1], [a.split("=") for a in sys.argv[2:]]
ws = []
for w, g, k in (("a", "python", 0), ("b", "c-modules", 1)):
    ws.append({"name": w, "group": g, "results": [
        {"interpreter": n, "median": float(v.split(",")[k])} for n, v in pairs]})
json.dump({"interpreters": [{"name": n} for n, _ in pairs], "workloads": ws}, open(f, "w"))
PY
	}
	mk one.json plain=100,100 upper=80,50
	mk two.json profopt=90,75 plain=999,999
	"$SRCDIR/Tools/scripts/bench-compare" --baseline=plain one.json two.json > cmp.out || { cat cmp.out; fail "bench-compare"; }
	# profopt over plain: a 1.111x, b 1.333x; upper: 1.25x, 2x; shares (x-1)/(u-1)
	expect_contains cmp.out '^profopt +all +2 +1\.217x +worst 1\.111x a'
	expect_contains cmp.out '^all +2 +1\.581x +1\.217x +37%'
	expect_contains cmp.out '^python +1 +1\.250x +1\.111x +44%'
	expect_status 1 "$SRCDIR/Tools/scripts/bench-compare" --metric=CEst one.json
	expect_contains out 'CEst needs the events'
	expect_status 1 "$SRCDIR/Tools/scripts/bench-compare" one.json nosuch.json
	expect_contains out '^bench-compare: cannot read nosuch\.json: '
	expect_not_contains out 'Traceback'
	# A later count of one workload replaces that workload's value, and says so.
	python3 - three.json <<'PY'
import json, sys
json.dump({"interpreters": [{"name": "profopt"}], "workloads": [{"name": "a", "group": "python",
           "results": [{"interpreter": "profopt", "median": 50.0}]}]}, open(sys.argv[1], "w"))
PY
	"$SRCDIR/Tools/scripts/bench-compare" --baseline=plain --recount=three.json one.json two.json > cmp2.out ||
		{ cat cmp2.out; fail "bench-compare --recount"; }
	expect_contains cmp2.out '^recounted from three\.json: a \(profopt\)'
	expect_contains cmp2.out '^profopt +all +2 +1\.633x +worst 1\.333x b'
	expect_status 1 "$SRCDIR/Tools/scripts/bench-compare" --recount=three.json one.json
	expect_contains out 'three.json has profopt on a, which the results do not'
	# Results of other workloads: refused, or with --common compared on the shared ones, named.
	expect_status 1 "$SRCDIR/Tools/scripts/bench-compare" --baseline=plain one.json three.json
	expect_contains out 'three\.json has other workloads than one\.json .--common compares'
	"$SRCDIR/Tools/scripts/bench-compare" --baseline=plain --common one.json three.json > cmp3.out ||
		{ cat cmp3.out; fail "bench-compare --common"; }
	expect_contains cmp3.out '^left out, not counted for every build: b$'
	expect_contains cmp3.out '^profopt +all +1 +2\.000x +worst 2\.000x a'
}

# Values that include the first loop's warm-up, over different loop counts in separate runs:
# refused (naming the workloads), or compared with --any-loops, saying so.  Counts of a bench
# that subtracts the warm-up ("subtracted_loops": 1) compare whatever their loop counts.
test_bench_compare_refuses_different_loop_counts() {
	require python3
	mk() { # FILE NAME VALUE LOOPS [STEADY]
		python3 - "$@" <<'PY'
import json, sys
f, n, v, loops = sys.argv[1], sys.argv[2], float(sys.argv[3]), int(sys.argv[4])
doc = {"mode": "instructions", "interpreters": [{"name": n}], "workloads": [{"name": "decimal",
       "group": "c-modules", "loops": loops, "results": [{"interpreter": n, "median": v}]}]}
if len(sys.argv) > 5:
    doc["subtracted_loops"] = 1
json.dump(doc, open(f, "w"))
PY
	}
	mk a.json stock 19.1e6 38 && mk b.json def 46.5e6 1 && mk c.json def 19.0e6 1
	expect_status 1 "$SRCDIR/Tools/scripts/bench-compare" a.json b.json
	expect_contains out 'different loop counts'
	expect_contains out 'decimal .38 loops in a\.json, 1 loops in b\.json.'
	"$SRCDIR/Tools/scripts/bench-compare" --any-loops a.json b.json > any.out || { cat any.out; fail "--any-loops"; }
	expect_contains any.out '^compared anyway .--any-loops., over different loop counts: decimal'
	mk a2.json stock 19.1e6 6 steady && mk c2.json def 19.0e6 3 steady
	"$SRCDIR/Tools/scripts/bench-compare" a2.json c2.json > steady.out || { cat steady.out; fail "steady counts refused"; }
	expect_contains steady.out '^def +all +1 +1\.005x'
}

# The pipeline table reads the stamps of two finished builds; a training of several workloads
# records its seconds per run (train-WORKLOAD.stamp), and the table adds them up.
test_pipeline_table_adds_up_the_training_of_several_workloads() {
	mkdir -p work/stock-best work/profopt/cpython/pgo
	echo '{"name": "stock-best", "configure_seconds": 20.0, "make_seconds": 880.0, "total_seconds": 900.0, "cc": "gcc", "args": "--enable-optimizations --with-lto"}' > work/stock-best.stamp
	printf '%s\n' '1.0 make all' '101.0 ./python -m test --pgo' '151.0 make clean-retain-profile' \
		'152.0 Rebuilding with profile guided optimizations:' '452.0 bench-builds-status 0' > work/stock-best/make.log
	echo '{"name": "profopt", "configure_seconds": 3.0, "make_seconds": 500.0, "total_seconds": 503.0, "cc": "gcc", "args": ""}' > work/profopt.stamp
	pgo=work/profopt/cpython/pgo
	for s in configure:30.0 instrument:150.0 train-profopt:16.5 train-regrtest:24.1 merge:0.2 clean:2.4 use:300.0 verify:0.2; do
		echo "{\"stage\": \"${s%%:*}\", \"status\": \"ok\", \"seconds\": ${s#*:}}" > "$pgo/${s%%:*}.stamp"
	done
	echo '{"stage": "train", "status": "ok", "workloads": "profopt:1 regrtest:1"}' > $pgo/train.stamp
	"$SRCDIR/Tools/scripts/bench-builds" --profopt="$PROFOPT" --work="$PWD/work" --results="$PWD/res" --tag=t pipeline > out 2>&1 ||
		{ cat out; fail "bench-builds pipeline"; }
	expect_contains out '^stock-best: ./configure --enable-optimizations --with-lto && make'
	expect_contains out '^  training *50\.0 s$'
	expect_contains out '^  rebuild with profile *300\.0 s$'
	expect_contains out '^  instrument *150\.0 s$'
	expect_contains out '^  train *40\.6 s$'
	expect_contains out '^  use *300\.0 s$'
	expect_contains out 'ratio profopt / stock: 0\.56 [(]target <= 0\.80: met[)]'
	expect_not_contains out 'unpacking'
	expect_contains res/pipeline-t.json '"ratio": 0.559'
}

# fake_cpython_source MINOR: a CPython 3.MINOR stand-in in src/ whose configure records its
# arguments and whose make makes a python that starts.
fake_cpython_source() {
	mkdir -p src/Python src/Include && touch src/Python/ceval.c
	echo "#define PY_MINOR_VERSION $1" > src/Include/patchlevel.h
	cat > src/configure <<'SH'
#!/bin/sh
echo "$@" > configure.args
printf '%s\n' "$@" > configure.argv
printf 'all:\n\tcp /bin/true python\n\techo "$(LDFLAGS)" > make.ldflags\n' > Makefile
SH
	chmod +x src/configure
}

# build_stand_in NAME [ARGS...]: bench-builds builds NAME (gcc, unless ARGS name another --cc)
# from the stand-in source.
build_stand_in() {
	name=$1; shift
	"$SRCDIR/Tools/scripts/bench-builds" --profopt="$PROFOPT" --cc=gcc --work="$PWD/work" --source="$PWD/src" \
		--only="$name" "$@" build > out 2>&1
}

# The llvm-bolt of LLVM's own directory, or skip.
real_bolt() {
	bolt=$(ls -d /usr/lib/llvm-*/bin/llvm-bolt 2>/dev/null | sort -V | tail -n 1)
	[ -n "$bolt" ] || skip "no /usr/lib/llvm-N/bin/llvm-bolt (Debian's bolt-N)"
}

# stock-bolt is stock's best with CPython's own --enable-bolt, given llvm-bolt and merge-fdata
# in LLVM's own directory (from Debian's /usr/bin symlink BOLT cannot find its runtime); on
# 3.12 and later with gcc it is stock's best.
test_stock_bolt_gets_the_real_bolt_tools() {
	real_bolt
	fake_cpython_source 14
	build_stand_in stock-bolt || { cat out; fail "bench-builds stock-bolt"; }
	args=$(cat work/stock-bolt/configure.args)
	expect_eq "$args" "CC=gcc --enable-optimizations --with-lto --enable-bolt LLVM_BOLT=$bolt MERGE_FDATA=${bolt%/*}/merge-fdata" \
		"stock-bolt's configure arguments"
	expect_contains work/stock-bolt.stamp '"name": "stock-bolt"'
	# From 3.12 (CPython's first --enable-bolt) with gcc, stock's best is that configuration
	# (BOLT measured to help on 3.13 and 3.14).
	build_stand_in stock-best || { cat out; fail "bench-builds stock-best"; }
	expect_eq "$(cat work/stock-best/configure.args)" "$args" "stock-best's configure arguments"
	echo '#define PY_MINOR_VERSION 13' > src/Include/patchlevel.h
	rm -rf work/stock-best work/stock-best.stamp
	build_stand_in stock-best || { cat out; fail "bench-builds stock-best, 3.13"; }
	expect_eq "$(cat work/stock-best/configure.args)" "$args" "3.13 stock-best's arguments"
	echo '#define PY_MINOR_VERSION 11' > src/Include/patchlevel.h
	rm -rf work/stock-best work/stock-best.stamp work/stock-bolt work/stock-bolt.stamp
	build_stand_in stock-best || { cat out; fail "bench-builds stock-best, 3.11"; }
	expect_eq "$(cat work/stock-best/configure.args)" "CC=gcc --enable-optimizations --with-lto" "3.11 stock-best's arguments"
	# stock-bolt is BOLT on any version.
	build_stand_in stock-bolt || { cat out; fail "bench-builds stock-bolt, 3.11"; }
	expect_eq "$(cat work/stock-bolt/configure.args)" "$args" "3.11 stock-bolt's arguments"
}

# With clang 19 on 3.14, stock's best has the tail-calling interpreter and BOLT; with clang 14
# BOLT only (the tail-calling interpreter needs clang 19).
test_stock_best_with_clang_follows_the_measurements() {
	real_bolt
	command -v clang-19 > /dev/null || skip "no clang-19"
	fake_cpython_source 14
	build_stand_in stock-best --cc=clang-19 || { cat out; fail "bench-builds stock-best, clang-19"; }
	expect_contains work/stock-best/configure.args \
		"^CC=clang-19 --enable-optimizations --with-lto --with-tail-call-interp --enable-bolt LLVM_BOLT=$bolt "
	command -v clang > /dev/null && clang -dM -E -x c /dev/null | grep -q '__clang_major__ 1[0-8]$' ||
		return 0
	rm -rf work/stock-best work/stock-best.stamp
	build_stand_in stock-best --cc=clang || { cat out; fail "bench-builds stock-best, clang"; }
	expect_contains work/stock-best/configure.args "^CC=clang --enable-optimizations --with-lto --enable-bolt LLVM_BOLT=$bolt "
	expect_not_contains work/stock-best/configure.args "tail-call"
}

# A variant's configure argument may hold blanks; it reaches configure as one argument.
test_a_variant_argument_keeps_its_blanks() {
	fake_cpython_source 13
	build_stand_in blank "--variant=blank=CFLAGS=-O1 -g;--with-training=profopt" &&
		fail "the stand-in source built"  # its make cannot build a CPython: configure is what counts
	expect_contains out '^==> blank: configure .* CFLAGS=-O1 -g --with-training=profopt '
	expect_contains work/blank/config.log "'CFLAGS=-O1 -g' --with-training=profopt$"
	build_stand_in nosuch --variant=blank=--x && fail "an unknown build name was accepted"
	expect_contains out "no build named 'nosuch'"
}

# --configure-args reach every build: stock's configure beside its own options, profopt's as
# PYTHON_CONFIGURE_ARGS; the results' tag names them; a build stamped with other arguments is
# never reused for them.
test_configure_args_reach_every_build() {
	fake_cpython_source 13
	echo '#define PY_VERSION "3.13.9"' >> src/Include/patchlevel.h
	build_stand_in stock --configure-args='--enable-shared;--with-x=a b' || { cat out; fail "bench-builds stock"; }
	expect_eq "$(cat work/stock/configure.args)" "CC=gcc --enable-optimizations --enable-shared --with-x=a b" \
		"stock's configure arguments"
	build_stand_in stock --configure-args='--enable-shared;--with-x=a b' || { cat out; fail "bench-builds stock, again"; }
	expect_contains out '^==> stock: reusing '
	build_stand_in stock --configure-args=--disable-gil && fail "a build of other arguments was reused"
	expect_contains out "was built with other configure arguments"
	build_stand_in profopt --configure-args='--disable-gil;--with-x=1' &&
		fail "the stand-in source built"  # its make cannot build a CPython: configure is what counts
	expect_contains work/profopt/config.log "'PYTHON_CONFIGURE_ARGS=--disable-gil --with-x=1'"
	"$SRCDIR/Tools/scripts/bench-builds" --profopt="$PROFOPT" --cc=gcc --work="$PWD/work" --source="$PWD/src" \
		--results="$PWD/res" --only=stock --configure-args='--enable-shared;--with-x=a b' bench > out 2>&1 &&
		fail "the stand-in was benchmarked"  # /bin/true cannot be: the results' name is what counts
	expect_contains out "results in $PWD/res/bench-3.13-gcc-enable-shared-with-x-a-b\\."
}

# stock-best-fix is stock's best with clang's dispatch workaround in the compiles and the LTO
# link, as profopt's configure applies it; with gcc it is refused, not built without it.
test_stock_best_fix_passes_the_dispatch_workaround() {
	command -v clang-19 > /dev/null || skip "no clang-19"
	fake_cpython_source 13
	build_stand_in stock-best-fix --cc=clang-19 || { cat out; fail "bench-builds stock-best-fix"; }
	expect_contains work/stock-best-fix/configure.argv '^--with-lto$'
	expect_contains work/stock-best-fix/configure.argv '^CFLAGS=-mllvm -tail-dup-pred-size=5000 -mllvm -tail-dup-succ-size=5000$'
	# the LTO link's options go to make, not to configure, whose test links load no plugin
	expect_not_contains work/stock-best-fix/configure.argv 'plugin-opt'
	expect_eq "$(cat work/stock-best-fix/make.ldflags)" "-Wl,-plugin-opt=-tail-dup-pred-size=5000 -Wl,-plugin-opt=-tail-dup-succ-size=5000"
	build_stand_in stock-best-fix --cc=clang-19 || { cat out; fail "bench-builds stock-best-fix, again"; }
	expect_contains out '^==> stock-best-fix: reusing '
	grep -q -- '-tail-dup-pred-size=5000' "$SRCDIR/m4/ax_pgo.m4" || fail "ax_pgo.m4 no longer uses these flags: update bench-builds"
	rm -rf work
	build_stand_in stock-best-fix && fail "stock-best-fix was built with gcc"
	expect_contains out "stock-best-fix: the dispatch workaround is clang's"
}
