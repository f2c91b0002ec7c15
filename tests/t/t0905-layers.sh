# t0905-layers.sh - the driver's folders depend one way (tests/layers, Misc/ARCHITECTURE):
# lib/ on nothing, format/ on lib/, pipeline/ and profile/ on format/ and lib/ but never on
# each other, the folder graph without a cycle, and a command's file exporting only cmd_NAME,
# help_NAME and options_NAME (its option table).

test_includes_point_one_way() {
	local out
	out=$("$SRCDIR/tests/layers" includes "$SRCDIR/Tools/profopt") || fail "includes against the layers:
$out"
}

test_command_files_export_only_the_command() {
	require nm
	local objects
	objects=$(find "$BUILDDIR/Tools/profopt" "$BUILDDIR/tests/unit" -name '*.o' | sort)
	[ -f "$BUILDDIR/Tools/profopt/pipeline/verify.o" ] || skip "the driver's objects are not built"
	local out
	out=$("$SRCDIR/tests/layers" exports $objects) || fail "command files exporting helpers:
$out"
}

# The checker itself, on small trees: each kind of violation is found and named.
tree() { # FILE CONTENT...: a tree under t/
	mkdir -p "t/$(dirname "$1")" && printf '%s\n' "$2" > "t/$1"
}

test_the_checker_finds_a_wrong_include() {
	tree lib/a.c '#include "lib/a.h"'
	tree format/f.c '#include "lib/a.h"'
	tree pipeline/p.c '#include "format/f.h"'
	tree main.c '#include "pipeline/p.h"'
	expect_status 0 "$SRCDIR/tests/layers" includes t
	tree profile/q.c '#include "pipeline/p.h"'
	expect_status 1 "$SRCDIR/tests/layers" includes t
	expect_contains out '^profile/q\.c:1: profile/ must not include pipeline/p\.h'
	rm t/profile/q.c
	tree lib/b.c '#include "format/f.h"'
	expect_status 1 "$SRCDIR/tests/layers" includes t
	expect_contains out '^lib/b\.c:1: lib/ must not include format/f\.h'
	expect_contains out 'cycle'
	rm t/lib/b.c
	tree format/g.c '#include "commands.h"'
	expect_status 1 "$SRCDIR/tests/layers" includes t
	expect_contains out '^format/g\.c:1: format/ must not include commands\.h'
	rm t/format/g.c
	tree extra/x.c '#include "lib/a.h"'
	expect_status 1 "$SRCDIR/tests/layers" includes t
	expect_contains out '^extra/x\.c: not in a known folder'
}

test_the_checker_finds_a_cycle() {
	# main.c and commands.h may include anything, but not in a circle
	tree commands.h '#include "pipeline/p.h"'
	tree pipeline/p.c '#include "commands.h"'
	expect_status 1 "$SRCDIR/tests/layers" includes t
	expect_contains out 'cycle'
	expect_not_contains out 'must not'
}

test_the_checker_finds_a_command_exporting_a_helper() {
	require nm
	printf 'int cmd_x(void); int helper(void);\nint helper(void) { return 1; }\nint cmd_x(void) { return helper(); }\n' > x.c
	printf 'int helper(void);\nint cmd_y(void) { return helper(); }\n' > y.c
	printf 'int cmd_x(void);\nint main(void) { return cmd_x(); }\n' > m.c
	for f in x y m; do "${CC:-cc}" -c -o $f.o $f.c; done
	expect_status 0 "$SRCDIR/tests/layers" exports x.o m.o
	expect_status 1 "$SRCDIR/tests/layers" exports x.o y.o m.o
	expect_contains out "^x\.o: a command's file exports helper, used by y\.o"
	expect_not_contains out 'cmd_x'
}
