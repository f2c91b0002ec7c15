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

# GCC's LTO link with -flto=N (PGO_LTO_LINK_FLAGS in the profile-use build) runs its partitions
# N at a time; the program it writes is the one a serial link writes, byte for byte.
test_gcc_parallel_ltrans_writes_the_same_program() {
	require gcc objcopy cmp
	for i in 1 2 3 4 5 6 7 8; do
		printf '__attribute__((noinline)) int f%d(int x) { int s = 0; for (int i = 0; i < x; i++) s += (i * %d) ^ (s >> 3); return s; }\n' "$i" "$i" > f$i.c
	done
	printf '#include <stdio.h>\n' > main.c
	for i in 1 2 3 4 5 6 7 8; do printf 'int f%d(int);\n' "$i" >> main.c; done
	printf 'int main(void) { printf("%%d\\n", f1(9)+f2(9)+f3(9)+f4(9)+f5(9)+f6(9)+f7(9)+f8(9)); return 0; }\n' >> main.c
	gcc -O2 -flto -c ./*.c
	lto='-O2 -flto -fuse-linker-plugin -ffat-lto-objects --param lto-min-partition=1 --param lto-partitions=4'
	gcc $lto -o serial ./*.o > serial.out 2>&1 || { cat serial.out; fail "serial link"; }
	expect_contains serial.out 'using serial compilation of [2-9][0-9]* LTRANS jobs'
	gcc $lto -flto=2 -o parallel ./*.o > parallel.out 2>&1 || { cat parallel.out; fail "parallel link"; }
	expect_not_contains parallel.out 'serial compilation'
	objcopy -O binary --only-section=.text serial serial.text
	objcopy -O binary --only-section=.text parallel parallel.text
	cmp serial.text parallel.text || fail "-flto=2 wrote other code than a serial link"
	expect_eq "$(./parallel)" "$(./serial)" "the program's answer"
}

# CPython 3.13 links with -flto-partition=none in its own flags, and GCC keeps "none" whatever
# model follows it; so profopt's make takes CPython's out of PY_LDFLAGS_NODIST (which CPython's
# make expands) and the link is partitioned.  A stand-in for CPython's Makefile, linked with the
# very words profopt's Makefile passes.
test_gcc_partition_model_replaces_cpythons_none() {
	require_out_of_tree_configure
	require gcc
	for i in 1 2 3 4 5 6 7 8; do
		printf '__attribute__((noinline)) int f%d(int x) { return x * %d + 1; }\n' "$i" "$i" > f$i.c
	done
	: > main.c
	for i in 1 2 3 4 5 6 7 8; do printf 'int f%d(int);\n' "$i" >> main.c; done
	printf 'int main(void) { return f1(0)+f2(0)+f3(0)+f4(0)+f5(0)+f6(0)+f7(0)+f8(0) - 8; }\n' >> main.c
	gcc -O2 -flto -c ./*.c
	lto='-O2 -flto -fuse-linker-plugin --param lto-min-partition=1 --param lto-partitions=4'
	gcc $lto -flto-partition=none -flto-partition=balanced -o sticky ./*.o > sticky.out 2>&1 || { cat sticky.out; fail "link"; }
	expect_not_contains sticky.out 'LTRANS jobs'
	cat > cpython.mk <<-EOF
	CONFIGURE_LDFLAGS_NODIST=$lto -flto-partition=none
	PY_LDFLAGS_NODIST=\$(CONFIGURE_LDFLAGS_NODIST) \$(LDFLAGS_NODIST)
	prog: ; gcc \$(PY_LDFLAGS_NODIST) -o prog f1.o f2.o f3.o f4.o f5.o f6.o f7.o f8.o main.o
	EOF
	mkdir -p py/Include py/Python && touch py/configure py/Python/ceval.c
	printf '#define PY_MAJOR_VERSION 3\n#define PY_MINOR_VERSION 13\n' > py/Include/patchlevel.h
	mkdir b && (cd b && "$SRCDIR/configure" --enable-optimizations CC=gcc --with-lto-partition=balanced --with-python-source="$PWD/../py") > configure.out 2>&1 ||
		{ cat configure.out; fail configure; }
	make -s -C b --eval='show-words: ; @printf "%s\n" $(py_lto_partition) LDFLAGS_NODIST="$(PGO_LTO_LINK_FLAGS)"' show-words PGO_JOBS=1 > words
	expect_contains words '^PY_LDFLAGS_NODIST=\$[(]filter-out'
	mapfile -t words < words
	make -f cpython.mk "${words[@]}" > link.out 2>&1 || { cat link.out; fail "link through the stand-in"; }
	expect_contains link.out 'partition=balanced'
	expect_not_contains link.out 'partition=none'
	expect_contains link.out 'serial compilation of [2-9][0-9]* LTRANS jobs'
	./prog || fail "the partitioned program"
}

# The flags reach CPython's profile-use link only with gcc and LTO: PGO_JOBS partitions at a time,
# and the partition model only when one is asked for (CPython's own by default, 3.13's too).
test_pipeline_passes_parallel_ltrans_to_gcc_only() {
	require_out_of_tree_configure
	require gcc clang
	mkdir -p py/Include py/Python && touch py/configure py/Python/ceval.c
	printf '#define PY_MAJOR_VERSION 3\n#define PY_MINOR_VERSION 14\n' > py/Include/patchlevel.h
	show='show-lto: ; @echo "[$(PGO_LTO_LINK_FLAGS)]"'
	"$SRCDIR/configure" --enable-optimizations CC=gcc --with-python-source="$PWD/py" > configure.out 2>&1 || { cat configure.out; fail configure; }
	expect_eq "$(make -s --eval="$show" show-lto PGO_JOBS=3)" "[-flto=3]" "gcc with LTO, CPython 3.14: CPython's partitions"
	"$SRCDIR/configure" --enable-optimizations CC=gcc --with-lto-partition=one --with-python-source="$PWD/py" > configure.out 2>&1 || { cat configure.out; fail "configure --with-lto-partition=one"; }
	expect_contains configure.out 'how GCC partitions .*\.\.\. one$'
	expect_eq "$(make -s --eval="$show" show-lto PGO_JOBS=3)" "[-flto=3 -flto-partition=one]" "gcc, --with-lto-partition=one"
	printf '#define PY_MAJOR_VERSION 3\n#define PY_MINOR_VERSION 13\n' > py/Include/patchlevel.h
	"$SRCDIR/configure" --enable-optimizations CC=gcc --with-python-source="$PWD/py" > configure.out 2>&1 || { cat configure.out; fail "configure 3.13"; }
	expect_contains configure.out 'how GCC partitions .*\.\.\. as CPython sets it$'
	expect_eq "$(make -s --eval="$show" show-lto PGO_JOBS=3)" "[-flto=3]" "gcc, CPython 3.13: CPython's one partition"
	expect_eq "$(make -s --eval='show-part: ; @echo "[$(py_lto_partition)]"' show-part)" "[]" "CPython 3.13's link flags left alone"
	"$SRCDIR/configure" --enable-optimizations CC=gcc --with-lto-partition=no --with-python-source="$PWD/py" > /dev/null 2>&1 || fail "configure --with-lto-partition=no"
	expect_eq "$(make -s --eval="$show" show-lto PGO_JOBS=3)" "[-flto=3]" "gcc, --with-lto-partition=no: CPython's own"
	"$SRCDIR/configure" --enable-optimizations CC=gcc --with-lto-partition=fast --with-python-source="$PWD/py" > configure.out 2>&1 &&
		fail "--with-lto-partition=fast was taken"
	expect_contains configure.out "with-lto-partition takes balanced.*not 'fast'"
	"$SRCDIR/configure" --enable-optimizations CC=gcc --with-lto=no --with-python-source="$PWD/py" > /dev/null 2>&1 || fail "configure --with-lto=no"
	expect_eq "$(make -s --eval="$show" show-lto PGO_JOBS=3)" "[]" "gcc without LTO"
	"$SRCDIR/configure" --enable-optimizations CC=clang --with-python-source="$PWD/py" > /dev/null 2>&1 || fail "configure with clang"
	expect_eq "$(make -s --eval="$show" show-lto PGO_JOBS=3)" "[]" "clang (ThinLTO runs its own jobs)"
}

# PGO_STACK_BOUNDED: the objects it lists get PGO_STACK_BOUND_FLAGS (the compiler's bound on the
# stack of what it inlines, as AX_PGO chooses it), out of LTO, whose link would inline again
# without the bound: a recursive function keeps a callee with a 2 KB buffer out of its frame.
stack_bound_case() { # CC FLAGS BIG: a callee with a BIG-byte buffer, a caller with 300 of its own
	local cc=$1 flags=$2 big=$3
	# (rec() recurses through down(), elsewhere, as save() does through save_reduce())
	cat > rec.c <<'CEOF'
int down(int n, const char *s);
static int big(const char *s) { volatile char buf[BIG]; buf[s[0] & 255] = s[1]; return buf[s[2] & 255]; }
int rec(int n, const char *s) { volatile char own[300]; if (n <= 0) return 0; own[n & 255] = s[3]; return big(s) ^ (down(n, s) * 3) ^ own[s[4] & 255]; }
CEOF
	printf 'rec.o: rec.c\n\t$(CC) -c -O2 -DBIG=%s $(CFLAGS_NODIST) -o $@ rec.c\n' "$big" > Makefile
	frame() { printf '%d' "$(objdump -d --no-show-raw-insn rec.o | sed -n '/<rec>:/,/^$/p' | sed -n 's/.*sub *\$\(0x[0-9a-f]*\),%rsp.*/\1/p' | head -n 1)"; }
	rm -f rec.o
	MAKEFILES="$SRCDIR/Tools/make/lto-exclude.mk" make CC="$cc" > make.out 2>&1 || { cat make.out; fail "make"; }
	[ "$(frame)" -gt "$big" ] || fail "the control: $cc did not inline big() into rec() (frame $(frame)), this test cannot tell anything"
	rm -f rec.o
	MAKEFILES="$SRCDIR/Tools/make/lto-exclude.mk" make CC="$cc" PGO_STACK_BOUNDED=rec.o \
		PGO_STACK_BOUND_FLAGS="$flags" > make.out 2>&1 || { cat make.out; fail "make, bounded"; }
	expect_contains make.out "-fno-lto $flags -o rec.o rec.c"
	[ "$(frame)" -lt "$big" ] || fail "rec() still holds big()'s buffer with $cc $flags: frame $(frame)"
}

test_gcc_bounds_the_frame_growth_of_what_it_inlines() {
	require gcc objdump
	stack_bound_case gcc "--param=large-stack-frame=256 --param=large-stack-frame-growth=10" 600
}

test_stack_bounded_objects_keep_big_callees_out() {
	require clang-19 objdump
	stack_bound_case clang-19 "-mllvm -inline-max-stacksize=512" 2048
}
