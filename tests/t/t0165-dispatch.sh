# t0165: an interpreter's dispatch (issue 52 items 1 and 2).  Clang 19 merges every computed
# goto of an eval loop into one indirect jump (llvm/llvm-project#106846): AX_PGO finds that on a
# small computed-goto loop and compiles (and LTO-links) with the flags that undo it, and verify
# counts the final program's indirect jumps against a reference -O3 compile of its source.  The
# goto fixture (tests/fixture-goto) is such an interpreter: 24 handlers, 25 gotos.

# The goto fixture in the current directory, configured for PGO with compiler $1 (then ARGS).
configured_goto_fixture() {
	require "$1" autoconf objdump
	cp -r "$SRCDIR/tests/fixture-goto/." .
	mkdir -p m4 && cp "$SRCDIR/m4/ax_pgo.m4" m4/
	cp "$SRCDIR/Tools/make/pgo.mk" "$SRCDIR/Tools/make/pgo-bench.mk" "$SRCDIR/Tools/make/qemu-exec.c" .
	autoconf -o configure configure.ac 2>autoconf.log || { cat autoconf.log >&2; fail "autoconf failed on the goto fixture"; }
	cc=$1 && shift
	./configure --enable-optimizations CC="$cc" PROFOPT="$PROFOPT" "$@" > configure.out 2>&1 || { cat configure.out; fail "configure"; }
}

# dispatch_passes, dispatch_passes_as RUNNER: make profile-opt ends ok with the dispatch line, every goto kept,
# and the program runs (through RUNNER).
dispatch_passes() { dispatch_passes_as ""; }
dispatch_passes_as() {
	make profile-opt > make.out 2>&1 || { cat make.out; fail "make profile-opt"; }
	expect_contains make.out '^dispatch: eval in /[^ ]*/gotoy: 25 indirect jumps, 100% of a reference -O3 compile.s 25$'
	expect_stamps verify
	# the line again after the summary: the last lines of profile-opt
	tail -n 3 make.out | grep -Eq '^dispatch: eval in /[^ ]*/gotoy(\.bolt)?: 25 indirect jumps' || { cat make.out; fail "no dispatch line after the summary"; }
	$1 ./gotoy 0123456789abcdefghijklmn 10 > /dev/null || fail "gotoy runs"
}

test_clang19_merges_and_configure_undoes_it() {
	configured_goto_fixture clang-19
	expect_contains configure.out '^checking how many of 25 computed gotos clang-19 keeps apart\.\.\. 1$'
	expect_contains configure.out 'keeps them apart\.\.\. yes \(25\)$'
	expect_contains configure.out '^checking how PGO builds compile an interpreter.s dispatch\.\.\. with -mllvm -tail-dup-pred-size=5000 -mllvm -tail-dup-succ-size=5000 '
	expect_contains pgo-config.mk '^PGO_USE_CFLAGS = .* -mllvm -tail-dup-pred-size=5000 -mllvm -tail-dup-succ-size=5000$'
	expect_contains pgo-config.mk '^PGO_GEN_CFLAGS = .* -mllvm -tail-dup-pred-size=5000 -mllvm -tail-dup-succ-size=5000$'
	dispatch_passes
}

# Without the workaround the PGO build keeps clang 19's merged dispatch: verify refuses it,
# naming both counts, and leaves no verify stamp.
test_clang19_without_the_fix_is_refused() {
	configured_goto_fixture clang-19 --disable-pgo-dispatch-fix
	expect_contains configure.out 'dispatch\.\.\. as clang-19 does by default \(--disable-pgo-dispatch-fix\)$'
	expect_not_contains pgo-config.mk '^PGO_USE_CFLAGS = .*tail-dup'
	if make profile-opt > make.out 2>&1; then cat make.out; fail "verify accepted a merged dispatch"; fi
	expect_contains make.out 'error: eval in /[^ ]*/gotoy has 1 indirect jump where a reference -O3 compile of its source by the same compiler has 25 \(4%, under 90%\): the compiler merged'
	test ! -f pgo/verify.stamp || fail "a verify stamp for a refused program"
	# the counts only, when asked to accept any share
	make profile-opt PGO_DISPATCH_MIN=0 > make0.out 2>&1 || { cat make0.out; fail "make profile-opt PGO_DISPATCH_MIN=0"; }
	expect_contains make0.out '^dispatch: eval in /[^ ]*/gotoy: 1 indirect jumps, 4% of a reference -O3 compile.s 25$'
}

# With ThinLTO the code is generated at the link: it gets the flags for the linker's LLVM.
test_clang19_thinlto_link_keeps_the_dispatch() {
	configured_goto_fixture clang-19 CFLAGS="-O2 -flto=thin"
	expect_contains configure.out 'ThinLTO link keeps them apart with -Wl,-plugin-opt=-tail-dup-pred-size=5000 -Wl,-plugin-opt=-tail-dup-succ-size=5000\.\.\. yes \(25\)$'
	dispatch_passes
	expect_contains pgo/logs/use.log ' -Wl,-plugin-opt=-tail-dup-pred-size=5000 -Wl,-plugin-opt=-tail-dup-succ-size=5000 -o gotoy '
}

# The compile's -mllvm flags alone do not reach a ThinLTO link's code generation.
test_clang19_thinlto_link_without_the_link_flags_is_refused() {
	configured_goto_fixture clang-19 CFLAGS="-O2 -flto=thin"
	if make profile-opt PGO_DISPATCH_LDFLAGS= > make.out 2>&1; then cat make.out; fail "verify accepted a merged dispatch"; fi
	expect_contains make.out 'error: eval in /[^ ]*/gotoy has 1 indirect jump where a reference -O3 compile of its source by the same compiler has 25 \(4%, under 90%\)'
}

# thin-link's backend jobs (--with-thinlto-workers) take the link's options for the linker's
# LLVM as -mllvm: the link line has the flags only as -Wl,-plugin-opt=.
test_clang19_thin_link_backends_keep_the_dispatch() {
	configured_goto_fixture clang-19 --with-thinlto-workers CFLAGS="-O2 -flto=thin"
	dispatch_passes
	expect_contains make.out '^thin-link \(use\): 1 link split, 0 of 2 backends on the workers, 2 here$'
	expect_contains pgo/thinlto/gotoy/jobs/0.here.log "^\\$ clang-19 -O2 -mllvm '-tail-dup-pred-size=5000' -mllvm '-tail-dup-succ-size=5000' "
}

# BOLT's rewrite of the program is checked again before it replaces it.
test_clang19_bolt_rewrite_keeps_the_dispatch() {
	local bolt
	bolt=$(command -v llvm-bolt-19 || ls /usr/lib/llvm-*/bin/llvm-bolt 2>/dev/null | head -n 1)
	[ -n "$bolt" ] || skip "llvm-bolt not installed (Debian: bolt-19)"
	configured_goto_fixture clang-19 --enable-bolt
	dispatch_passes
	expect_stamps bolt
	expect_contains pgo/logs/bolt.log '^dispatch: eval in /[^ ]*/gotoy\.bolt: 25 indirect jumps, 100% of a reference -O3 compile.s 25$'
}

# A cross build (aarch64, trained under qemu-user): clang 19 merges the dispatch there too, and
# verify disassembles the target's program with the objdump AX_PGO found for it.
test_clang19_cross_aarch64_keeps_the_dispatch() {
	require clang-19 qemu-aarch64 aarch64-linux-gnu-gcc
	test -e /usr/aarch64-linux-gnu/lib/ld-linux-aarch64.so.1 || skip "the aarch64 C library is not installed"
	printf 'int main(void) { return 0; }\n' > rt.c
	clang-19 --target=aarch64-linux-gnu -fprofile-generate -o rt rt.c > rt.out 2>&1 || skip "clang-19 has no profile runtime for aarch64"
	configured_goto_fixture clang-19 --host=aarch64-linux-gnu CC="clang-19 --target=aarch64-linux-gnu"
	expect_contains configure.out 'computed gotos clang-19 --target=aarch64-linux-gnu keeps apart\.\.\. 1$'
	expect_contains configure.out '^configure: the dispatch check disassembles with [^ ]*objdump'
	dispatch_passes_as "$(sed -n 's/^PGO_RUNNER = //p' pgo-config.mk)"
}

# The probe decides, not the version: clang 14 keeps the gotos apart by itself.
test_clang14_needs_no_fix() {
	configured_goto_fixture clang
	expect_contains configure.out '^checking how many of 25 computed gotos clang keeps apart\.\.\. 25$'
	expect_contains configure.out 'dispatch\.\.\. as clang does by default$'
	dispatch_passes
}

# GCC keeps them apart without a profile, but with one the handlers training never ran go to the
# function's cold part, whose jumps to the shared goto it does not duplicate: configure finds
# that on a profile of half the handlers, and -fno-reorder-blocks-and-partition undoes it.
# Here training runs 10 of the 24 handlers.
gcc_half_trained() {
	configured_goto_fixture gcc CFLAGS="-O2 -flto" "$@"
	printf 'some\t./gotoy 0123456789 200000\n' > train.txt
	expect_contains configure.out '^checking how many of 25 computed gotos gcc keeps apart\.\.\. 25$'
}

test_gcc_partition_merges_and_configure_undoes_it() {
	gcc_half_trained
	expect_contains configure.out '^checking how many of 25 computed gotos gcc keeps apart when training ran half the handlers\.\.\. 1[0-9]$'
	expect_contains configure.out '^checking whether -fno-reorder-blocks-and-partition keeps them apart\.\.\. yes \(25\)$'
	expect_contains pgo-config.mk '^PGO_USE_LDFLAGS = .* -fno-reorder-blocks-and-partition$'
	dispatch_passes
}

test_gcc_without_the_fix_is_refused() {
	gcc_half_trained --disable-pgo-dispatch-fix
	if make profile-opt > make.out 2>&1; then cat make.out; fail "verify accepted a merged dispatch"; fi
	expect_contains make.out 'error: eval in /[^ ]*/gotoy has 1[0-9] indirect jumps where a reference -O3 compile of its source by the same compiler has 25 '
}

test_dispatch_command_line() {
	require cc objdump
	printf 'int eval(int x) { return x + 1; }\nint main(void) { return eval(0) - 1; }\n' > e.c
	cc -O2 -c e.c -o e.o && cc -O2 e.c -o e || fail "cc"
	expect_status 2 "$PROFOPT" dispatch --reference=e.o e
	expect_status 2 "$PROFOPT" dispatch --function=eval --handlers=x --reference=e.o e
	expect_status 2 "$PROFOPT" dispatch --function=eval e
	"$PROFOPT" dispatch --function=eval --reference=e.o e > out 2>&1 && fail "a function without indirect jumps accepted"
	expect_contains out 'eval in e\.o has no indirect jump: not an interpreter.s dispatch'
	"$PROFOPT" dispatch --function=nothere --reference=e.o e > out 2>&1 && fail "a missing function accepted"
	expect_contains out 'nothere not found in e '
	"$PROFOPT" dispatch --function=eval --reference=e.o missing > out 2>&1 && fail "a missing program accepted"
	expect_contains out 'objdump -t missing failed: objdump: '
}

# A tail-calling interpreter: handlers that reach each other by indirect tail jumps (musttail,
# as CPython 3.14's _TAIL_CALL_ handlers); handlers that call each other instead are refused.
test_dispatch_tail_calling_handlers() {
	require clang-19 objdump
	cat > tail.c <<'EOF'
typedef long handler(const unsigned char *pc, long acc);
extern handler *const table[];
#ifdef CALLS
#define NEXT return table[*pc](pc + 1, acc)
#else
#define NEXT __attribute__((musttail)) return table[*pc](pc + 1, acc)
#endif
long op_add(const unsigned char *pc, long acc) { acc += 3; NEXT; }
long op_mul(const unsigned char *pc, long acc) { acc *= 5; NEXT; }
long op_xor(const unsigned char *pc, long acc) { acc ^= 7; NEXT; }
long op_end(const unsigned char *pc, long acc) { (void)pc; return acc; }
handler *const table[] = {op_add, op_mul, op_xor, op_end};
int main(void) { static const unsigned char p[] = {1, 2, 3}; return (int)op_add(p, 0) & 1; }
EOF
	clang-19 -O3 -c tail.c -o ref.o && clang-19 -O2 tail.c -o good && clang-19 -O0 -DCALLS tail.c -o calls || fail "clang-19"
	"$PROFOPT" dispatch --handlers=op_ --reference=ref.o good > out 2>&1 || { cat out; fail "tail-calling handlers refused"; }
	expect_contains out '^dispatch: the handlers op_\* in good: 3 indirect jumps, 100% of a reference -O3 compile.s 3 \(3 of 4 handlers have one; the reference: 3 of 4\)$'
	"$PROFOPT" dispatch --handlers=op_ --reference=ref.o calls > out 2>&1 && fail "handlers that call each other accepted"
	expect_contains out 'the handlers op_\* in calls has 0 indirect jumps where a reference -O3 compile of its source by the same compiler has 3 \(0%, under 90%\) \(0 of 4 handlers have one; the reference: 3 of 4\)'
}
