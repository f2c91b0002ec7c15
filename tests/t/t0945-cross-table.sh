# t0945-cross-table.sh - Tools/scripts/cross-table (issue 39): the committed results of cross
# builds trained under qemu-user beside native ones (Misc/results/cross/), as Misc/BENCHMARKS
# prints them (t0520 checks the copy there): what must hold of every row, and bad input refused.

DATA=Misc/results/cross

test_pipeline_rows() {
	require python3
	"$SRCDIR/Tools/scripts/cross-table" "$SRCDIR/$DATA" > table.txt || fail "cross-table"
	expect_contains table.txt '^build +target +runner +instrument +train +use +verify +total +train vs native +verify: units used$'
	# an emulated build: its training against the native build of the same Python and compiler
	expect_contains table.txt '^3\.13\.5-gcc12\.2\.0 +aarch64-linux-gnu +qemu-aarch64 .* [0-9]+\.[0-9]x +[0-9]+/[0-9]+$'
	# a native build: no ratio
	expect_contains table.txt '^3\.13\.5-gcc12\.2\.0 +x86_64-linux-gnu +\(native\) .* - +[0-9]+/[0-9]+$'
}

test_instruction_rows() {
	require python3
	"$SRCDIR/Tools/scripts/cross-table" --instructions "$SRCDIR/$DATA" > table.txt || fail "cross-table --instructions"
	expect_contains table.txt '^3\.13\.5-gcc12\.2\.0 +aarch64-linux-gnu +28 +[0-9]\.[0-9]{3}x +[a-z_]+ [0-9]\.[0-9]{3}x +[a-z_]+ [0-9]\.[0-9]{3}x$'
	expect_not_contains table.txt 'x86_64'
}

test_bad_input_is_refused() {
	require python3
	expect_status 1 "$SRCDIR/Tools/scripts/cross-table"
	expect_contains out 'usage: cross-table'
	mkdir empty
	expect_status 1 "$SRCDIR/Tools/scripts/cross-table" empty
	expect_contains out 'no builds in empty'
	mkdir -p d/b && echo 'python=3.13.5' > d/b/build.kv
	expect_status 1 "$SRCDIR/Tools/scripts/cross-table" d
	expect_contains out 'no compiler= in build\.kv'
	printf 'python=3.13.5\ncompiler=gcc 12.2.0\ntarget=aarch64-linux-gnu\n' > d/b/build.kv
	expect_status 1 "$SRCDIR/Tools/scripts/cross-table" d
	expect_contains out 'no verify\.stamp: not a finished pipeline'
	rm d/b/build.kv
	expect_status 1 "$SRCDIR/Tools/scripts/cross-table" d
	expect_contains out 'no build\.kv'
}
