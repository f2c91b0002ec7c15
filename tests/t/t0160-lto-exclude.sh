# Tools/make/lto-exclude.mk: the objects it lists are compiled without LTO, the rest with it,
# with the project's Makefile as it is (it is read through MAKEFILES).

# A program whose hot() (hot.c) calls a small helper() in another file (helper.c): with LTO
# the helper is inlined across files into hot(); with hot.o out of LTO it stays a call.
lto_project() {
	printf 'int helper(int x) { return x * 3 + 1; }\n' > helper.c
	printf 'int helper(int);\n__attribute__((noinline)) int hot(int n)\n{\n\tint s = 0;\n\tfor (int i = 0; i < n; i++)\n\t\ts += helper(i);\n\treturn s;\n}\n' > hot.c
	printf '#include <stdio.h>\n#include <stdlib.h>\nint hot(int);\nint main(int argc, char **argv) { printf("%%d\\n", hot(argc > 1 ? atoi(argv[1]) : 0)); return 0; }\n' > main.c
	printf 'CONFIGURE_CFLAGS = -O2 -flto\nprog: main.o hot.o helper.o\n\t$(CC) $(CONFIGURE_CFLAGS) $(CFLAGS_NODIST) -o $@ main.o hot.o helper.o\n.c.o:\n\t$(CC) -c $(CONFIGURE_CFLAGS) $(CFLAGS_NODIST) -o $@ $<\n' > Makefile
}

# gcc writes its intermediate code into .gnu.lto_* sections, clang a bitcode file ('BC').
is_lto_object() {
	case "$(head -c 2 "$1")" in BC) return 0 ;; esac
	readelf -S "$1" | grep -q '\.gnu\.lto_'
}

hot_calls_helper() {
	objdump -d --no-show-raw-insn prog | sed -n '/<hot>:/,/^$/p' | grep -q 'call.*<helper>'
}

check_lto_exclude_with() {
	require "$1" objdump readelf
	lto_project
	MAKEFILES="$SRCDIR/Tools/make/lto-exclude.mk" make CC="$1" CFLAGS_NODIST=-g PGO_LTO_EXCLUDE=hot.o > make.out 2>&1 ||
		{ cat make.out; fail "make with hot.o excluded"; }
	expect_eq "$(./prog 4)" 22 "the program's answer"
	expect_contains make.out '-o hot.o hot.c'
	is_lto_object helper.o || fail "helper.o is not an LTO object: the rest of the program lost LTO"
	! is_lto_object hot.o || fail "hot.o was compiled with LTO"
	hot_calls_helper || fail "hot() no longer calls helper(): it was link-time optimized"
	# the control: without the exclusion, LTO does inline helper() into hot()
	rm -f ./*.o prog
	MAKEFILES="$SRCDIR/Tools/make/lto-exclude.mk" make CC="$1" CFLAGS_NODIST=-g > make.out 2>&1 ||
		{ cat make.out; fail "make without exclusions"; }
	expect_eq "$(./prog 4)" 22 "the program's answer"
	is_lto_object hot.o || fail "with nothing excluded, hot.o is not an LTO object"
	! hot_calls_helper || fail "LTO did not inline helper() into hot(): this test cannot tell anything"
}

test_gcc() { check_lto_exclude_with gcc; }
test_clang() { check_lto_exclude_with clang; }
