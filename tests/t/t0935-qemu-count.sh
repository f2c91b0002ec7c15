# t0935-qemu-count.sh - Tools/scripts/qemu-count (issue 39): the guest instructions an aarch64
# program executes under qemu-user, counted by qemu's instruction-counting plugin, which
# Tools/scripts/qemu-insn-plugin builds from the installed qemu's own source (once: cached).
# The same program and input count the same every run; more work counts more, by the same
# instructions per step; the program's input, output and status pass through.

SYSROOT=/usr/aarch64-linux-gnu

# Skips, naming what is missing, unless the aarch64 cross compiler and C library, qemu-aarch64
# and the plugin are here.  The plugin's reasons to be missing that are this machine's (no
# network, no glib headers, a qemu without plugins) skip; any other failure of the builder fails.
require_counting() {
	command -v aarch64-linux-gnu-gcc > /dev/null 2>&1 ||
		skip "the aarch64 cross compiler is not installed (Debian: apt-get install gcc-aarch64-linux-gnu)"
	test -e $SYSROOT/lib/ld-linux-aarch64.so.1 ||
		skip "the aarch64 C library is not installed (Debian: apt-get install libc6-dev-arm64-cross)"
	command -v qemu-aarch64 > /dev/null 2>&1 || skip "qemu-aarch64 is not installed (Debian: apt-get install qemu-user)"
	if ! PLUGIN=$("$SRCDIR/Tools/scripts/qemu-insn-plugin" 2> plugin.err); then
		grep -Eq 'cannot download|is needed|headers are needed|takes no -plugin|belongs to no Debian package' plugin.err ||
			{ cat plugin.err; fail "qemu-insn-plugin"; }
		skip "qemu's instruction-counting plugin cannot be built here: $(tail -n 1 plugin.err)"
	fi
}

# loop: N steps of the same work (argv[1]), exit status argv[2]; reads and echoes stdin when
# argv[3] is "echo".  No output of its own, so only the steps differ between two values of N of
# the same number of digits.
build_loop() {
	cat > loop.c <<'EOF'
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
int main(int argc, char **argv)
{
	volatile long sum = 0;
	long n = atol(argv[1]);
	for (long i = 0; i < n; i++)
		sum += i;
	if (argc > 3 && strcmp(argv[3], "echo") == 0) {
		char line[64];
		while (fgets(line, sizeof line, stdin))
			fputs(line, stdout);
	}
	return atoi(argv[2]);
}
EOF
	aarch64-linux-gnu-gcc -O2 -o loop loop.c || fail "aarch64-linux-gnu-gcc loop.c"
}

# count N STATUS: loop's instructions for N steps (its exit status must be STATUS)
count() {
	local rc=0
	"$SRCDIR/Tools/scripts/qemu-count" --output=n.txt qemu-aarch64 -L $SYSROOT ./loop "$1" "$2" > count.out 2>&1 || rc=$?
	[ "$rc" = "$2" ] || { cat count.out >&2; fail "qemu-count ./loop $1 $2 exited $rc, expected $2"; }
	cat n.txt
}

test_same_program_and_input_count_the_same() {
	require_counting
	build_loop
	local a b
	a=$(count 100000 0) && b=$(count 100000 0)
	expect_match "$a" '^[0-9]+$'
	[ "$a" -gt 100000 ] || fail "100000 steps counted $a instructions"
	expect_eq "$b" "$a" "the second run's count"
	# the count on standard error when no --output is given
	"$SRCDIR/Tools/scripts/qemu-count" qemu-aarch64 -L $SYSROOT ./loop 100000 0 > out 2> err
	expect_eq "$(cat err)" "qemu-count: $a instructions" "qemu-count's line"
}

test_more_work_counts_more() {
	require_counting
	build_loop
	local c1 c2 c3 step
	c1=$(count 100000 0) && c2=$(count 200000 0) && c3=$(count 300000 0)
	[ "$c2" -gt "$c1" ] || fail "200000 steps counted $c2, 100000 steps $c1"
	# every 100000 steps add the same instructions: a few per step
	expect_eq "$((c3 - c2))" "$((c2 - c1))" "instructions of the third 100000 steps against the second's"
	step=$(((c2 - c1) / 100000))
	expect_eq "$((c2 - c1))" "$((step * 100000))" "instructions of 100000 steps (a whole number per step)"
	[ "$step" -ge 2 ] && [ "$step" -le 20 ] || fail "a step of the loop counted $step instructions"
}

test_exit_status_input_and_output_pass_through() {
	require_counting
	build_loop
	count 1000 3 > /dev/null
	count 1000 0 > /dev/null
	local rc=0
	printf 'one\ntwo\n' | "$SRCDIR/Tools/scripts/qemu-count" --output=n.txt qemu-aarch64 -L $SYSROOT ./loop 10 7 echo > out 2> err || rc=$?
	expect_eq "$rc" 7 "qemu-count's status for a program that exits 7"
	expect_eq "$(cat out)" "$(printf 'one\ntwo')" "the program's output of its input"
	expect_match "$(cat n.txt)" '^[0-9]+$'
	# a program that dies of a signal gives no count, and qemu-count says so
	printf '#include <signal.h>\nint main(void) { raise(SIGTERM); return 0; }\n' > killed.c
	aarch64-linux-gnu-gcc -o killed killed.c
	expect_status 125 "$SRCDIR/Tools/scripts/qemu-count" --output=n.txt qemu-aarch64 -L $SYSROOT ./killed
	expect_contains out '^qemu-count: \./killed was ended by signal 15: qemu.s plugin gives its count only when the program exits$'
	[ ! -e n.txt ] || fail "a count was left in n.txt from a run that gave none"
}

# The plugin is built once: a second run prints the same path and builds nothing.
test_plugin_is_built_once() {
	require_counting
	local before
	before=$(stat -c %Y "$PLUGIN")
	expect_eq "$("$SRCDIR/Tools/scripts/qemu-insn-plugin" 2> again.err)" "$PLUGIN" "the plugin's path on a second run"
	expect_eq "$(cat again.err)" "" "what a second run says"
	expect_eq "$(stat -c %Y "$PLUGIN")" "$before" "the plugin's time after a second run"
}

# qemu-count refuses the qemu options it gives itself; a plugin source of another version than
# the installed qemu's is refused (neither needs the plugin, nor the network).
test_refusals_are_named() {
	require qemu-aarch64
	qemu-aarch64 -h | grep -q '^-plugin' || skip "this qemu-aarch64 takes no -plugin (built without TCG plugins)"
	expect_status 125 "$SRCDIR/Tools/scripts/qemu-count" qemu-aarch64 -L $SYSROOT -d in_asm ./loop 1 0
	expect_contains out "^qemu-count: qemu-count gives qemu its -d itself"
	expect_status 125 "$SRCDIR/Tools/scripts/qemu-count" qemu-aarch64 -L $SYSROOT
	expect_contains out '^qemu-count: usage: qemu-count '
	mkdir -p old/tests/plugin old/include/qemu
	echo 1.0.0 > old/VERSION
	touch old/tests/plugin/insn.c old/include/qemu/qemu-plugin.h
	expect_status 1 "$SRCDIR/Tools/scripts/qemu-insn-plugin" --source="$PWD/old" --cache="$PWD/cache"
	expect_contains out "^qemu-insn-plugin: the qemu source is version 1\.0\.0, .*qemu-aarch64 is [0-9]+\.[0-9]+\.[0-9]+: a plugin must be built against the qemu that loads it$"
	[ -z "$(ls cache/qemu-plugin)" ] || fail "a plugin was left in the cache: $(ls cache/qemu-plugin)"
}

# qemu-bench: a benchmark workload's instructions on two interpreters under qemu-user (here this
# machine's python3 twice, under qemu-x86_64), start-up and import subtracted: the same
# interpreter counts nearly the same, and the JSON holds every workload for every label.
test_qemu_bench_counts_workloads_per_interpreter() {
	require_counting
	require python3
	command -v qemu-x86_64 > /dev/null 2>&1 || skip "qemu-x86_64 is not installed (Debian: apt-get install qemu-user)"
	"$SRCDIR/Tools/scripts/qemu-bench" --output=q.json --workloads=ints,sets qemu-x86_64 a=python3 b=python3 > out 2> err ||
		{ cat out err; fail "qemu-bench"; }
	expect_contains out '^ints +a +[0-9]+$'
	expect_contains out '^sets +b +[0-9]+$'
	python3 -c 'import json, sys
d = json.load(open("q.json"))
assert d["loops"] == 1 and d["qemu"] == "qemu-x86_64", d
for w in ("ints", "sets"):
    a, b = d["workloads"][w]["a"], d["workloads"][w]["b"]
    assert a > 1000000, (w, a)
    assert abs(a - b) < a / 1000, (w, a, b)' || fail "q.json: $(cat q.json)"
	expect_status 1 "$SRCDIR/Tools/scripts/qemu-bench" --workloads=nosuch qemu-x86_64 a=python3
	expect_contains out "no workload 'nosuch'"
	expect_status 1 "$SRCDIR/Tools/scripts/qemu-bench" qemu-x86_64 a=python3 a=python3
	expect_contains out 'each interpreter wants a label of its own'
	expect_status 1 "$SRCDIR/Tools/scripts/qemu-bench" --loops=0 qemu-x86_64 a=python3
	expect_contains out '--loops wants a positive number'
}
