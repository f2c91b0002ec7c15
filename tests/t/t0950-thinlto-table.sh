# Tools/scripts/same-code and thinlto-table (Misc/BENCHMARKS section 6): what must hold whatever
# the figures are.

DATA=Misc/results/thinlto/3.13.5-clang19

test_same_code_tells_layout_from_code() {
	require python3 objdump gcc
	printf 'int g;\n__attribute__((noinline)) int f(int x) { return x * 7 + g; }\nint main(int c, char **v) { return f(c); }\n' > a.c
	gcc -O2 -o one a.c || fail "compile"
	# the same code at other addresses: a function and data placed before it
	printf 'int pad[64];\n__attribute__((noinline)) int h(int x) { return pad[x & 63]; }\n' > b.c
	gcc -O2 -o two b.c a.c || fail "compile two"
	"$SRCDIR/Tools/scripts/same-code" --json one two > same.json || fail "same-code"
	expect_eq "$(json_get same.json same)" "$(json_get same.json common)" "functions with the same code"
	expect_contains same.json '"only_b": \['
	grep -A1 '"only_b"' same.json | grep -q '"h"' || fail "h is not named as only in two"
	# other code under the same name
	sed 's/x \* 7/x * 9/' a.c > c.c && gcc -O2 -o three c.c || fail "compile three"
	"$SRCDIR/Tools/scripts/same-code" one three > out.txt || fail "same-code text"
	expect_contains out.txt '^other code: .*\bf\b'
	expect_status 1 "$SRCDIR/Tools/scripts/same-code" one
	expect_contains out 'usage: same-code'
	expect_status 1 "$SRCDIR/Tools/scripts/same-code" one /nonexistent
	expect_contains out 'same-code: .*failed'
}

test_thinlto_table_from_the_committed_runs() {
	require python3
	"$SRCDIR/Tools/scripts/thinlto-table" "$SRCDIR/$DATA" > table.txt || fail "thinlto-table"
	expect_contains table.txt "^python's ThinLTO link \(238 modules\)"
	expect_contains table.txt '^  in one process, this machine.s CPUs +[0-9.]+ \([0-9.]+-[0-9.]+, [0-9]+ runs\)$'
	expect_contains table.txt '^  longest backend \(Python/ceval\.o\) +[0-9.]+$'
	# more workers never slower, and never below the floor (index + longest backend + link)
	sed -n 's/^  1 worker: \([0-9.]*\)  4 workers: \([0-9.]*\)  16 workers: \([0-9.]*\)  64 workers: \([0-9.]*\)$/\1 \2 \3 \4/p' table.txt > walls.txt
	[ -s walls.txt ] || fail "no predicted walls"
	floor=$(sed -n 's/^  the floor: index + longest backend + link = \([0-9.]*\);.*/\1/p' table.txt)
	awk -v f="$floor" '{ for (i = 2; i <= NF; i++) if ($i > $(i - 1) + 0.05) exit 1; for (i = 1; i <= NF; i++) if ($i < f - 0.05) exit 1 }' walls.txt ||
		fail "predicted walls $(cat walls.txt) grow with workers or fall below the floor $floor"
	expect_contains table.txt '^same code: [0-9]+ of [0-9]+ functions by the same name'
	mkdir empty
	expect_status 1 "$SRCDIR/Tools/scripts/thinlto-table" empty
	expect_contains out 'no empty/runs\.tsv'
	expect_status 1 "$SRCDIR/Tools/scripts/thinlto-table" --workers=0 "$SRCDIR/$DATA"
}
