# t0930-cross.sh - PGO for another architecture (issue 39): the fixture cross-built for aarch64
# with gcc and with clang, trained under qemu-user (the runner AX_PGO finds), ends with verify's
# ok and an aarch64 program that gives the right answer; a runner given as a script is the one
# used; a machine with no way to run the target's programs is told so by configure.
# (Tools/scripts/setup-debian installs qemu-user, gcc-aarch64-linux-gnu, libc6-dev-arm64-cross
# and clang's aarch64 profile runtime.)

SYSROOT=/usr/aarch64-linux-gnu
# The runner configure finds: qemu without -L where the aarch64 C library is also installed as
# this machine's multiarch libraries (libc6:arm64, its loader at its own path), since -L of the
# cross sysroot would pair that sysroot's loader with the multiarch libc.so.6; else -L SYSROOT.
if readelf -h /lib/ld-linux-aarch64.so.1 2>/dev/null | grep -q 'Machine: *AArch64'; then
	QEMU="qemu-aarch64"
else
	QEMU="qemu-aarch64 -L $SYSROOT"
fi

# configure --host=aarch64-linux-gnu --enable-optimizations ARGS...: the compiler comes from
# autoconf's cross tool lookup (aarch64-linux-gnu-gcc) unless ARGS say CC=, not from the test
# runner's CC and flags.
xconfigure() {
	env -u CC -u CFLAGS -u CPPFLAGS -u LDFLAGS ./configure --host=aarch64-linux-gnu --enable-optimizations PROFOPT="$PROFOPT" "$@"
}

# Skips, naming what is missing, unless the aarch64 cross compiler and C library (and, unless
# $1 is "no-qemu", qemu-user) are installed.
require_aarch64() {
	require autoconf
	command -v aarch64-linux-gnu-gcc > /dev/null 2>&1 ||
		skip "the aarch64 cross compiler is not installed (Debian: apt-get install gcc-aarch64-linux-gnu)"
	test -e $SYSROOT/lib/ld-linux-aarch64.so.1 ||
		skip "the aarch64 C library is not installed (Debian: apt-get install libc6-dev-arm64-cross)"
	[ "${1-}" = no-qemu ] || command -v qemu-aarch64 > /dev/null 2>&1 ||
		skip "qemu-aarch64 is not installed (Debian: apt-get install qemu-user)"
}

# Skips unless clang $1 (clang, clang-19) has its profile runtime for aarch64.
require_clang_aarch64() {
	require "$1"
	printf 'int main(void) { return 0; }\n' > rt.c
	"$1" --target=aarch64-linux-gnu -fprofile-generate -o rt rt.c > rt.out 2>&1 ||
		skip "$1 has no profile runtime for aarch64: $(grep -o 'libclang_rt[^ :]*' rt.out | head -n 1) (Debian: dpkg --add-architecture arm64 && apt-get update && apt-get install libclang-rt-$("$1" -dumpversion | cut -d. -f1)-dev:arm64)"
	rm -f rt rt.c rt.out
}

# The cross-built PGO program: aarch64 ELF (file, readelf), the right answer under qemu, and
# not runnable here.
check_aarch64_toy() {
	require file readelf
	file toy > file.out
	expect_contains file.out 'ELF 64-bit LSB .*ARM aarch64'
	readelf -h toy > readelf.out
	expect_contains readelf.out 'Machine: +AArch64'
	expect_eq "$($QEMU ./toy ppas 10)" 90 "the optimized aarch64 program's answer under qemu"
	! ./toy ppas 10 > /dev/null 2>&1 || skip "this machine runs aarch64 programs itself (binfmt_misc?): nothing was cross about it"
}

# The whole pipeline on the fixture configured for aarch64 with CONFIGURE-ARGS, trained under
# qemu-user: every stage, the tasks' results as natively, and verify's ok.
cross_round_trip() {
	setup_fixture
	xconfigure "$@" > configure.out 2>&1 ||
		{ cat configure.out; fail "configure --host=aarch64-linux-gnu"; }
	expect_contains configure.out "how training runs the programs built for aarch64-.*linux-gnu\.\.\. through qemu-user: .*$QEMU\$"
	expect_contains configure.out "factor of the training's timeouts\.\.\. 10: the target's programs are emulated"
	expect_contains pgo-config.mk "^PGO_RUNNER = .*$QEMU\$"
	expect_contains pgo-config.mk '^PGO_RUNNER_EMULATED = yes$'
	make profile-opt > make.out 2>&1 || { cat make.out; fail "make profile-opt (cross, under qemu)"; }
	expect_stamps configure instrument train merge clean use verify
	expect_contains make.out "^train: the target's programs run through .*$QEMU \(following exec: pgo/qemu-exec\.so\)$"
	expect_contains make.out "^train: timeout 12000 s per task \(1200 s x --timeout-scale 10: emulated programs run slower\)"
	# the exec shim, built for the target (t0932 shows what it does)
	readelf -h pgo/qemu-exec.so > shim.out && expect_contains shim.out 'Machine: +AArch64'
	# a runner that already holds the preload (make's environment, recorded by a configure
	# --recheck that make ran) is the same runner: the shim still learns the emulator
	local runner; runner=$(sed -n 's/^PGO_RUNNER = //p' pgo-config.mk)
	make -s --eval 'show: ; @echo "$(PGO_RUNNER)|$$PROFOPT_QEMU_EXEC"' show PGO_RUNNER="$runner -E LD_PRELOAD=$PWD/pgo/qemu-exec.so" > again.out
	expect_eq "$(cat again.out)" "$runner -E LD_PRELOAD=$PWD/pgo/qemu-exec.so|$runner" "the runner and the emulator the shim starts"
	expect_contains make.out 'training: 4 tasks, [0-9]+ at a time, timeout 12000 s each'
	# "fails" runs the toy inside sh -c through $PGO_RUNNER: it ran, and failed as natively
	expect_contains make.out '1 of 4 training tasks failed: fails'
	expect_contains pgo/logs/train/004-fails.log '^999000$'
	expect_contains pgo/logs/verify-run.log 'training: 4 of 4 tasks ran'
	expect_contains make.out 'verify: 2 of 2 compiled units used profile data'
	expect_contains make.out 'verify: interp.o: used profile data'
	expect_contains make.out 'total +ok'
	check_aarch64_toy
}

test_cross_gcc_under_qemu() {
	require_aarch64
	cross_round_trip
	expect_contains configure.out 'verify reads the objects with aarch64-linux-gnu-gcc-nm and aarch64-linux-gnu-readelf'
	# the emulated runs wrote their .gcda files here: main() ran once per task
	expect_contains make.out 'merge: 2 \.gcda files'
	expect_eq "$(gcc_main_count)" 4 "main's count from the emulated training"
}

# clang_round_trip CLANG: the fixture cross-built by CLANG --target=aarch64-linux-gnu.
clang_round_trip() {
	require_aarch64
	require_clang_aarch64 "$1"
	cross_round_trip CC="$1 --target=aarch64-linux-gnu"
	# the driver's raw-profile check ran its test program under qemu
	expect_contains make.out '^\(test program, run through --runner\): readable by llvm-profdata'
	expect_contains make.out 'merge: 4 raw profiles'
	local llvm_profdata; llvm_profdata=$(sed -n 's/^LLVM_PROFDATA = //p' pgo-config.mk)
	"$llvm_profdata" show --function=main --counts pgo/merged.profdata > show.out
	expect_contains show.out 'Block counts: \[4\b'
}

test_cross_clang_under_qemu() { clang_round_trip clang; }
test_cross_clang19_under_qemu() { clang_round_trip clang-19; }

# riscv64 too, where Debian has the pieces: gcc's cross compiler and C library, trained under
# qemu-riscv64 (clang would need its profile runtime for riscv64, which Debian builds for that
# architecture only).
test_cross_riscv64_gcc_under_qemu() {
	require autoconf file
	command -v riscv64-linux-gnu-gcc > /dev/null 2>&1 ||
		skip "the riscv64 cross compiler is not installed (Debian: apt-get install gcc-riscv64-linux-gnu)"
	test -e /usr/riscv64-linux-gnu/lib/ld-linux-riscv64-lp64d.so.1 ||
		skip "the riscv64 C library is not installed (Debian: apt-get install libc6-dev-riscv64-cross)"
	command -v qemu-riscv64 > /dev/null 2>&1 || skip "qemu-riscv64 is not installed (Debian: apt-get install qemu-user)"
	setup_fixture
	env -u CC -u CFLAGS -u CPPFLAGS -u LDFLAGS ./configure --host=riscv64-linux-gnu --enable-optimizations PROFOPT="$PROFOPT" > configure.out 2>&1 ||
		{ cat configure.out; fail "configure --host=riscv64-linux-gnu"; }
	expect_contains configure.out "how training runs the programs built for riscv64-.*linux-gnu\.\.\. through qemu-user: .*qemu-riscv64"
	make profile-opt > make.out 2>&1 || { cat make.out; fail "make profile-opt (riscv64, under qemu)"; }
	expect_stamps configure instrument train merge clean use verify
	expect_contains make.out '1 of 4 training tasks failed: fails'
	expect_contains make.out 'verify: 2 of 2 compiled units used profile data'
	file toy > file.out
	expect_contains file.out 'ELF 64-bit LSB .*RISC-V'
	expect_eq "$(qemu-riscv64 -L /usr/riscv64-linux-gnu ./toy ppas 10)" 90 "the optimized riscv64 program's answer under qemu"
}

# A runner given as a script is the one that runs every program of the target: configure's test
# program, the instrumented toy's start check, each training task (the one in sh -c too), and
# the optimized toy at verify.  Its timeouts are not scaled (it is not qemu), and it says so.
test_runner_script_is_used() {
	require_aarch64
	setup_fixture
	cat > runner.sh <<EOF
#!/bin/sh
echo "\$*" >> "$PWD/runner.log"
exec $QEMU "\$@"
EOF
	chmod +x runner.sh
	xconfigure --with-pgo-runner="$PWD/runner.sh" > configure.out 2>&1 || { cat configure.out; fail "configure"; }
	expect_contains configure.out "through $PWD/runner.sh\$"
	expect_contains configure.out "factor of the training's timeouts\.\.\. 1\$"
	expect_contains pgo-config.mk '^PGO_RUNNER_EMULATED = no$'
	expect_contains runner.log '^\./conftest$'
	make profile-opt > make.out 2>&1 || { cat make.out; fail "make profile-opt through runner.sh"; }
	expect_contains make.out "^train: the target's programs run through $PWD/runner.sh; timeout 1200 s per task \(not scaled"
	expect_contains make.out 'verify: interp.o: used profile data'
	expect_contains runner.log '^\./toy version$'
	for t in 'ppas 200000' 'ppmdxs 150000' 'pdpapmsq 100000' 'ppas 1000'; do
		# training and verify's run of the optimized toy
		expect_eq "$(grep -c "^\./toy $t\$" runner.log)" 2 "runs of './toy $t' through the runner"
	done
	expect_not_contains runner.log '^sh '
	# a runner that is not qemu gets nothing added: no exec shim
	expect_not_contains runner.log 'LD_PRELOAD'
	[ ! -e pgo/qemu-exec.so ] || fail "an exec shim was built for a runner that is not qemu"
	check_aarch64_toy
}

# A runner that does not run the target's programs stops configure, saying what a runner is.
test_runner_that_does_not_run_is_refused() {
	require_aarch64 no-qemu
	setup_fixture
	expect_status 1 xconfigure --with-pgo-runner=true
	expect_contains out "the PGO runner 'true' did not run a test program built by aarch64-linux-gnu-gcc"
	expect_contains out 'a runner is a command that runs a program of the target'
	expect_status 1 xconfigure --with-pgo-runner='x $(y)'
	expect_contains out "holds \\$, # or a newline"
}

# Without qemu (a PATH that has everything of /usr/bin but qemu-*) and without binfmt_misc
# emulation, configure says that training cannot run the target's programs and how to give a
# runner; --without-pgo-runner takes the user's word; BOLT is no stage of a cross build.
test_no_runner_is_a_configure_error() {
	require_aarch64 no-qemu
	setup_fixture
	mkdir nobin && ln -s /usr/bin/* nobin/ && rm -f nobin/qemu-*
	PATH=$PWD/nobin expect_status 1 xconfigure
	if grep -q 'directly: this machine emulates them' out; then skip "this machine runs aarch64 programs itself (binfmt_misc)"; fi
	expect_contains out 'how training runs the programs built for aarch64-linux-gnu\.\.\. no way'
	expect_contains out 'cross compiling for aarch64-linux-gnu: this machine cannot run its programs, and PGO trains by running them'
	expect_contains out 'apt-get install qemu-user libc6-dev-arm64-cross'
	expect_contains out 'binfmt_misc'
	expect_contains out '--with-pgo-runner=CMD: a command that runs a program of the target'
	PATH=$PWD/nobin expect_status 0 xconfigure --without-pgo-runner
	expect_contains out 'built for aarch64-linux-gnu\.\.\. directly \(--without-pgo-runner\)'
	expect_status 1 xconfigure --without-pgo-runner --enable-bolt
	expect_contains out '--enable-bolt: the BOLT stage runs the linked program on this machine, not aarch64-linux-gnu.s \(a cross build has no BOLT stage\)'
}

# profopt train --launcher=target-run keeps the tasks as they were - names, order, --each,
# commands given as arguments, workloads - and starts each command through target-run.
test_launcher_rewrites_only_the_commands() {
	require_aarch64 no-qemu
	setup_fixture
	./configure --enable-optimizations CC=gcc PROFOPT="$PROFOPT" > configure.out 2>&1 || { cat configure.out; fail "configure"; }
	aarch64-linux-gnu-gcc -o prog -x c - <<'EOF'
int main(void) { return 0; }
EOF
	printf '#!/bin/sh\necho "ran $*${X:+ X=$X}" >> %s/runner.log\n' "$PWD" > runner.sh && chmod +x runner.sh
	printf '#!/bin/sh\necho script > script.out\n' > script.sh && chmod +x script.sh
	printf '# a comment\n\nnamed\t./prog a\n  ./prog b  \nhost\tsh -c "echo host > host.out"\nscript\t./script.sh\nenv\tX=1 ./prog e\n' > tasks.txt
	printf 'x\ny\n' > names.txt
	PGO_RUNNER=$PWD/runner.sh "$PROFOPT" train --launcher="$PROFOPT target-run" -j 1 --log-dir logs1 \
		--tasks tasks.txt --results r1.json -- './prog c' > t1.out 2>&1 || { cat t1.out; fail "train through target-run"; }
	expect_eq "$(python3 -c 'import json; print(",".join(t["name"] for t in json.load(open("r1.json"))["results"]))')" \
		"named,./prog b,host,script,env,./prog c" "task names, in order"
	expect_eq "$(cat runner.log)" "$(printf 'ran ./prog a\nran ./prog b\nran ./prog e X=1\nran ./prog c')" "what the runner ran"
	expect_eq "$(cat host.out)" host "the host's sh -c task, run as it is"
	expect_eq "$(cat script.out)" script "the script task, run as it is"
	rm -f runner.log
	PGO_RUNNER=$PWD/runner.sh "$PROFOPT" train --launcher="$PROFOPT target-run" -j 1 --results=r2.json --log-dir=logs2 \
		--workload=w1 --tasks=names.txt --each './prog {}' --workload=w2:2 './prog z' > t2.out 2>&1 ||
		{ cat t2.out; fail "--each through target-run"; }
	expect_eq "$(cat runner.log)" "$(printf 'ran ./prog x\nran ./prog y\nran ./prog z')" "what the runner ran for --each and workloads"
}

# A profile exported by a native build of the same sources is refused by the aarch64 build: the
# fixture's manifest records the compiler's target (PGO_TARGET).
test_native_profile_is_refused_by_a_cross_build() {
	require_aarch64 no-qemu
	mkdir a && cd a
	configured_fixture gcc
	make profile-opt > make.out 2>&1 || { cat make.out; fail "native build"; }
	make profile-export > export.out 2>&1 || { cat export.out; fail "profile-export"; }
	cd .. && mkdir b && cd b
	setup_fixture
	xconfigure --without-pgo-runner > configure.out 2>&1 || { cat configure.out; fail "configure"; }
	expect_status 2 make profile-opt PGO_PROFILE=../a/pgo/profile-export.tar.gz
	expect_contains out '^  target +profile: x86_64-linux-gnu$'
	expect_contains out '^ +this build: aarch64-linux-gnu$'
	expect_contains out 'refusing a profile that does not match'
}

# With clang, a profile trained natively on the same source serves the cross build (no emulator
# runs an instrumented program): imported with PGO_PROFILE_TARGET naming the machine it was
# trained for, a front-end profile is used by every unit; the profile of a machine other than
# the one named is still refused.  (An IR profile does not carry over: the fixture's interp.c
# hashes differently compiled for aarch64, and verify refuses the build.)
test_native_clang_profile_serves_a_cross_build() {
	require_aarch64
	require_clang_aarch64 clang
	mkdir a && cd a
	configured_fixture clang --with-pgo-instrumentation=frontend
	make profile-opt > make.out 2>&1 || { cat make.out; fail "native build"; }
	make profile-export > export.out 2>&1 || { cat export.out; fail "profile-export"; }
	local native; native=$(sed -n 's/^PGO_TARGET = //p' pgo-config.mk)
	[ -n "$native" ] || fail "the native build names no PGO_TARGET"
	cd .. && mkdir b && cd b
	setup_fixture
	xconfigure CC="clang --target=aarch64-linux-gnu" --with-pgo-instrumentation=frontend > configure.out 2>&1 ||
		{ cat configure.out; fail "configure"; }
	expect_status 2 make profile-opt PGO_PROFILE=../a/pgo/profile-export.tar.gz PGO_PROFILE_TARGET=riscv64-linux-gnu
	expect_contains out "^  target +profile: $native\$"
	make profile-opt PGO_PROFILE=../a/pgo/profile-export.tar.gz PGO_PROFILE_TARGET="$native" > make.out 2>&1 ||
		{ cat make.out; fail "the cross build with the native profile"; }
	expect_contains make.out "^import: a profile trained for $native, used for aarch64-.*linux-gnu \(PGO_PROFILE_TARGET\)"
	expect_contains make.out 'verify: 2 of 2 compiled units used profile data'
	[ ! -e pgo/instrument.stamp ] && [ ! -e pgo/train.stamp ] || fail "the cross build trained a profile of its own"
	check_aarch64_toy
}

# profopt's own top level configured for aarch64 (CPython's cross build): profopt is built for
# this machine by CC_FOR_BUILD, CPython for aarch64 by the cross compiler, and CPython's
# configure gets both machines, the build-python made from the same source, and pkg-config
# limited to the target's libraries; make's own runs of the interpreter go through the runner,
# and the precompile step uses the build-python.
test_top_level_cross_configure() {
	require_out_of_tree_configure
	require_aarch64
	mkdir -p Python-3.13.9/Include Python-3.13.9/Python
	touch Python-3.13.9/configure Python-3.13.9/Python/ceval.c
	printf '#define PY_MAJOR_VERSION 3\n#define PY_MINOR_VERSION 13\n' > Python-3.13.9/Include/patchlevel.h
	env -u CC -u CFLAGS "$SRCDIR/configure" --host=aarch64-linux-gnu --enable-optimizations \
		--with-python-source="$PWD/Python-3.13.9" > configure.out 2>&1 || { cat configure.out; fail "configure --host"; }
	expect_contains configure.out "this machine's C compiler, for profopt itself\.\.\. cc \($(cc -dumpmachine)\)$"
	expect_contains Makefile '^CC = aarch64-linux-gnu-gcc$'
	expect_contains Makefile '^PROFOPT_CC = cc$'
	expect_contains pgo-config.mk "^PGO_RUNNER = .*$QEMU\$"
	make Tools/profopt/profopt > make.out 2>&1 || { cat make.out; fail "make profopt"; }
	Tools/profopt/profopt --version > version.out || fail "profopt, built for this machine, does not run here"
	make -n cpython-configure > dry.out 2>&1
	expect_contains dry.out "configure --host=aarch64-linux-gnu --build=$(cc -dumpmachine) --with-build-python=$PWD/cpython/build-python/python ac_cv_file__dev_ptmx=yes ac_cv_file__dev_ptc=no ac_cv_buggy_getaddrinfo=no PKG_CONFIG_LIBDIR=/usr/lib/aarch64-linux-gnu/pkgconfig:/usr/share/pkgconfig "
	expect_contains dry.out 'CC="aarch64-linux-gnu-gcc"'
	[ ! -e cpython/build-python ] || fail "make -n built the build-python"
	expect_contains dry.out "-C $PWD/cpython/build-python -- sh -c .*configure CC=\"([^ ]*ccache )?cc\""
	show='show: ; $(info $(PGO_TRAIN_LIST))$(info $(PGO_VERIFY_RUN))@:'
	make -s --eval="$show" show > list.out
	expect_contains list.out "LD_LIBRARY_PATH=$PWD/cpython/build .*$QEMU -E LD_PRELOAD=$PWD/cpython/pgo/qemu-exec\.so \./python -c "
	expect_contains list.out "$PWD/cpython/build-python/python -m compileall "
	# a profile of another machine: named with the bundle, and only clang's front-end profiles
	touch native.tar.gz
	local xc="env -u CC -u CFLAGS $SRCDIR/configure --host=aarch64-linux-gnu --enable-optimizations --with-python-source=$PWD/Python-3.13.9"
	expect_status 1 $xc --with-profile-target=x86_64-linux-gnu
	expect_contains out 'with-profile-target names the machine of the --with-profile bundle, which was not given'
	expect_status 1 $xc --with-profile="$PWD/native.tar.gz" --with-profile-target=x86_64-linux-gnu
	expect_contains out "only clang's profiles serve another machine; gcc's \.gcda files"
	# _pickle.o's inlining bounded by stack on 3.13 with clang (gcc's profile stays within the
	# budget): by clang 19's stack size bound, and compiled without the profile by clang 14
	expect_contains Makefile '^PY_STACK_BOUNDED = $'
	"$SRCDIR/configure" --enable-optimizations CC=gcc --with-python-source="$PWD/Python-3.13.9" --with-stack-bounded=Modules/_pickle.o > /dev/null 2>&1 || fail "configure"
	expect_contains Makefile '^PY_STACK_BOUND_FLAGS = --param=large-stack-frame=256 --param=large-stack-frame-growth=10$'
	if command -v clang-19 > /dev/null 2>&1; then
		$xc CC="clang-19 --target=aarch64-linux-gnu" > configure.out 2>&1 || { cat configure.out; fail "configure, clang-19"; }
		expect_contains Makefile '^PY_STACK_BOUNDED = Modules/_pickle\.o$'
		expect_contains Makefile '^PY_STACK_BOUND_FLAGS = -mllvm -inline-max-stacksize=512$'
		make -n cpython-configure > /dev/null 2>&1
		make -s --eval='show: ; $(info $(PGO_BUILD_USE))@:' show > use.out
		expect_contains use.out 'PGO_STACK_BOUNDED="Modules/_pickle\.o" PGO_STACK_BOUND_FLAGS="-mllvm -inline-max-stacksize=512"'
	fi
	$xc CC="clang --target=aarch64-linux-gnu" > configure.out 2>&1 || { cat configure.out; fail "configure, clang"; }
	expect_contains configure.out 'bounds inlining by stack\.\.\. -fno-profile-instr-use$'
	expect_contains Makefile '^PY_STACK_BOUNDED = Modules/_pickle\.o$'
	"$SRCDIR/configure" --enable-optimizations CC=gcc --with-python-source="$PWD/Python-3.13.9" --without-stack-bounded > /dev/null 2>&1 || fail "configure"
	expect_contains Makefile '^PY_STACK_BOUNDED = $'
	# natively: no cross argument, and the interpreter itself precompiles
	"$SRCDIR/configure" --enable-optimizations CC=gcc --with-python-source="$PWD/Python-3.13.9" > /dev/null 2>&1 || fail "configure"
	expect_contains Makefile '^PROFOPT_CC = gcc$'
	make -n cpython-configure > dry.out 2>&1
	expect_not_contains dry.out '--host=\|build-python'
	make -s --eval="$show" show > list.out
	expect_contains list.out ' \./python -m compileall '
}

# An aarch64 program that starts programs, as CPython's subprocess does (vfork, then execve
# with an environment, or posix_spawnp): `starter run PROG ARG...`, `starter spawn PROG ARG...`
# say PROG's exit status; `starter show ARG...` says its arguments and CHILD_X, and exits 7.
write_starter() {
	aarch64-linux-gnu-gcc -o starter -x c - <<'CEOF' || fail "the aarch64 starter did not build"
#include <errno.h>
#include <spawn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>
extern char **environ;
int main(int argc, char **argv)
{
	char *env[] = {"CHILD_X=42", "PATH=/usr/bin:/bin", NULL};
	int status = -1;
	pid_t pid;
	if (argc > 1 && strcmp(argv[1], "show") == 0) {
		printf("show: argv0=%s args=", argv[0]);
		for (int i = 2; i < argc; i++)
			printf("%s%s", argv[i], i + 1 < argc ? " " : "");
		printf(" X=%s preload=%s\n", getenv("CHILD_X") ? getenv("CHILD_X") : "-",
			getenv("LD_PRELOAD") ? getenv("LD_PRELOAD") : "-");
		return 7;
	}
	if (argc < 3)
		return 2;
	fflush(stdout);
	if (strcmp(argv[1], "spawn") == 0) {
		if ((errno = posix_spawnp(&pid, argv[2], NULL, NULL, argv + 2, environ)) != 0)
			return perror("posix_spawnp"), 1;
	} else if ((pid = vfork()) == 0) {
		execve(argv[2], argv + 2, env);
		perror("execve");
		_exit(127);
	}
	waitpid(pid, &status, 0);
	printf("%s: exit %d\n", argv[1], WEXITSTATUS(status));
	return 0;
}
CEOF
}

# A program under the pipeline's qemu runner starts programs of the target (itself, by execve
# with an environment, as /proc/self/exe and by posix_spawnp, and a script whose #! names it)
# through the emulator, thanks to the exec shim pgo.mk builds; programs of this machine (sh)
# still run natively; without the shim, the same execve fails: this machine's kernel cannot
# run an aarch64 program.
test_emulated_programs_follow_exec() {
	require_aarch64
	setup_fixture
	xconfigure > configure.out 2>&1 || { cat configure.out; fail "configure"; }
	write_starter
	printf '#!%s/starter show\n' "$PWD" > script.sh && chmod +x script.sh
	# the Makefile's own $(PGO_RUNNER) ./prog, and the shim made as a stage makes it
	make -s "$PWD/pgo/qemu-exec.so" || fail "make the exec shim"
	run='run: ; @$(PGO_RUNNER) ./starter $(ARGS)'
	make -s --eval="$run" run ARGS='run ./starter show a b' > self.out 2>&1 || { cat self.out; fail "starter run ./starter"; }
	expect_contains self.out '^show: argv0=\./starter args=a b X=42 preload=-$'
	expect_contains self.out '^run: exit 7$'
	make -s --eval="$run" run ARGS='run /proc/self/exe show g' > proc.out 2>&1 || { cat proc.out; fail "starter run /proc/self/exe"; }
	expect_contains proc.out '^show: argv0=/proc/self/exe args=g X=42'
	make -s --eval="$run" run ARGS='run ./script.sh c' > script.out 2>&1 || { cat script.out; fail "starter run ./script.sh"; }
	expect_contains script.out "^show: argv0=$PWD/starter args=\\./script\\.sh c X=42"
	PATH=$PWD:$PATH make -s --eval="$run" run ARGS='spawn starter show d' > spawn.out 2>&1 || { cat spawn.out; fail "starter spawn starter"; }
	expect_contains spawn.out '^show: argv0=starter args=d X=- preload=-$'
	expect_contains spawn.out '^spawn: exit 7$'
	make -s --eval="$run" run ARGS="run /bin/sh -c 'echo host \$\$(uname -m) \$\$CHILD_X'" > host.out 2>&1 || { cat host.out; fail "starter run /bin/sh"; }
	expect_contains host.out "^host $(uname -m) 42$"
	expect_not_contains host.out 'LD_PRELOAD|ld\.so'
	# training tasks (through target-run) get it too
	train='train-it: ; @$(PGO_TRAIN_CMD) -j 1 --log-dir=tlogs -- "./starter run ./starter show e"'
	make -s --eval="$train" train-it > train.out 2>&1 || { cat train.out; fail "a training task that starts the target's program"; }
	expect_contains tlogs/*.log '^show: argv0=\./starter args=e X=42'
	# the same execve without the shim
	$QEMU ./starter run ./starter show f > bare.out 2>&1
	expect_contains bare.out '^execve: Exec format error$'
	expect_contains bare.out '^run: exit 127$'
}

# Issue 51: the exec shim never blocks on a file that is not a program: an exec of a FIFO (no
# writer: opening it would wait for ever) or of a device fails at once, as it does without the
# shim; a script whose #! names a FIFO too.
test_exec_shim_never_blocks_on_a_fifo_or_device() {
	require_aarch64
	setup_fixture
	xconfigure > configure.out 2>&1 || { cat configure.out; fail "configure"; }
	write_starter
	make -s "$PWD/pgo/qemu-exec.so" || fail "make the exec shim"
	mkfifo ff && chmod +x ff
	printf '#!%s/ff\n' "$PWD" > byfifo.sh && chmod +x byfifo.sh
	run='run: ; @$(PGO_RUNNER) ./starter $(ARGS)'
	local f rc
	for f in ./ff /dev/zero ./byfifo.sh; do
		rc=0
		timeout -s KILL 20 make -s --eval="$run" run ARGS="run $f" > fifo.out 2>&1 || rc=$?
		[ $rc -eq 0 ] || { echo > ff & fail "the exec of $f blocked or failed (exit $rc)"; }
		expect_contains fifo.out '^execve: (Permission denied|Exec format error)$'
		expect_contains fifo.out '^run: exit 127$'
	done
}

# pgo.mk's build of the shim fails loudly: a compiler that fails, a qemu-exec.c not beside it.
test_exec_shim_build_failures_are_said() {
	require_aarch64
	setup_fixture
	xconfigure > configure.out 2>&1 || { cat configure.out; fail "configure"; }
	expect_status 2 make "$PWD/pgo/qemu-exec.so" CC=false
	expect_contains out 'pgo\.mk: false did not build the exec shim .*/pgo/qemu-exec\.so from \./qemu-exec\.c'
	rm qemu-exec.c
	expect_status 2 make "$PWD/pgo/qemu-exec.so"
	expect_contains out 'pgo\.mk: \./qemu-exec\.c is missing: it must sit beside pgo\.mk'
	[ ! -e pgo/qemu-exec.so ] || fail "a shim was left"
}
