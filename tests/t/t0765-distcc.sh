# t0765: distributed compiles under the pipeline (issue 40, Misc/DISTRIBUTED.md): the fixture
# configured --with-distcc builds on two distccd workers on loopback, each in its own mount
# namespace where the build's parent directory is an empty tmpfs, so that a worker sees no file
# of the build.  Clang's front-end instrumentation compiles both stages there (the profile
# reaches the workers under its content's name); gcc's profile compiles stay here, and say so.

# start_workers [STALE]: two distccd workers on free loopback ports (WORKERS: their pids,
# HOSTS: their DISTCC_HOSTS), stopped when the test ends.  Each one sees the build's parent
# directory empty; with STALE, it holds that file as the build's pgo/merged.profdata.  Sets
# STORE, a profile store outside the hidden directory (a shared one, as NFS would be).
start_workers() {
	require distcc distccd unshare $DCLANG
	unshare --mount --propagation private true 2>/dev/null || skip "no mount namespace here (unshare --mount needs CAP_SYS_ADMIN)"
	hide=$(dirname "$PWD") build=$PWD/new
	# (distccd compiles as the user distcc: the store must be readable by it.)
	STORE=$(mktemp -d "$hide-store.XXXXXX") && chmod 755 "$STORE"
	export DISTCC_DIR=$STORE/distcc-state
	mkdir -p "$DISTCC_DIR"
	# the workers' temporary files: TMPDIR may be closed to the user distcc (root's, mode 755)
	mkdir -m 1777 "$STORE/tmp"
	stale=
	if [ -n "${1:-}" ]; then stale=$STORE/stale.profdata && cp "$1" "$stale"; fi
	WORKERS= HOSTS=
	trap 'kill $WORKERS 2>/dev/null || true; rm -rf "$STORE"' EXIT
	port=36320
	for w in 1 2; do
		while [ $port -lt 36400 ]; do
			port=$((port + 1))
			unshare --mount --propagation private sh -c 'mount -t tmpfs tmpfs "$1" &&
				{ test -z "$3" || { mkdir -p "$2/pgo" && cp "$3" "$2/pgo/merged.profdata"; }; } &&
				TMPDIR=$5 exec distccd --no-detach --daemon --allow 127.0.0.1 --listen 127.0.0.1 --port "$4" \
					--jobs 2 --enable-tcp-insecure --log-stderr' sh "$hide" "$build" "$stale" "$port" "$STORE/tmp" > "worker$w.log" 2>&1 &
			pid=$!
			sleep 0.5
			if kill -0 $pid 2>/dev/null; then
				WORKERS="$WORKERS $pid" HOSTS="$HOSTS 127.0.0.1:$port"
				break
			fi
		done
	done
	[ "$(echo $WORKERS | wc -w)" = 2 ] || skip "no two loopback ports for distccd in 36321-36399"
}

# distcc_fixture CC ARGS...: the fixture in ./new, configured --with-distcc=$HOSTS.
distcc_fixture() {
	cc=$1; shift
	mkdir -p new && cd new
	configured_fixture "$cc" --with-distcc="$HOSTS" CFLAGS=-O2 "$@"
}

# The clang for distcc: one that can name a compile's source for its profile (-Xclang=ARG,
# which clang 14 lacks; configure refuses that one, test_distcc_configure_refuses_clang14).
DCLANG=clang-19

# local_copy OBJ SRC: compiles SRC here with the command the use stage ran through distcc.
local_copy() {
	cmd=$(grep -- "-c -o $1 $2\$" pgo/logs/use.log | sed "s/^[^ ]*distcc //; s/-o $1/-o local-$1/")
	[ -n "$cmd" ] || fail "no compile of $1 in the use log"
	$cmd || fail "local compile: $cmd"
}

test_distcc_clang_both_stages_on_hidden_workers() {
	start_workers
	distcc_fixture $DCLANG --with-pgo-instrumentation=frontend
	expect_contains configure.out "checking for distcc's workers\.\.\. 127\.0\.0\.1:[0-9]+ 127\.0\.0\.1:[0-9]+"
	expect_contains configure.out "names a compile's source for its profile \(-Xclang=-main-file-name\)\.\.\. yes"
	with_static_function
	# A compile that cannot be distributed fails instead of quietly running here.
	DISTCC_FALLBACK=0 make profile-opt PGO_PROFILE_STORE="$STORE" > make.out 2>&1 || { cat make.out ../worker*.log; fail "make profile-opt"; }
	expect_contains make.out '^distcc \(instrument\): 2 of 2 compiles on the workers, 0 here$'
	expect_contains make.out '^distcc \(use\): 2 of 2 compiles on the workers, 0 here$'
	expect_contains make.out 'verify: 2 of 2 compiled units used profile data'
	static_names_from_source
	sha=$(sha256sum pgo/merged.profdata | cut -d' ' -f1)
	expect_eq "$(grep -c -- "-fprofile-instr-use=$STORE/merged-$sha.profdata .*-c" pgo/logs/use.log)" 2 \
		"use compiles naming the profile by its content"
	# A later make without PGO_PROFILE_STORE (install-python, CPython's test programs) names
	# the profile in the pipeline's directory: it is there, the same file.
	cmp pgo/merged.profdata "pgo/merged-$sha.profdata" || fail "no pgo/merged-$sha.profdata beside the store's copy"
	# A remote object is the object this machine compiles from the same command.
	local_copy interp.o interp.c
	cmp interp.o local-interp.o || fail "interp.o from the worker differs from a local compile"
	# The workers cannot see the build: the profile under the build's path is missing there.
	expect_status 1 env DISTCC_FALLBACK=0 DISTCC_HOSTS="$HOSTS" distcc $DCLANG -O2 -fprofile-instr-use="$PWD/pgo/merged.profdata" -c -o x.o ../new/main.c
	expect_contains out 'Could not read profile|Error in reading profile'
}

test_distcc_stale_profile_on_worker_changes_nothing() {
	require $DCLANG autoconf
	# The stale profile: the fixture trained on one task only.
	mkdir old && (cd old && configured_fixture $DCLANG --with-pgo-instrumentation=frontend CFLAGS=-O2 &&
		printf 'mix\t./toy ppmdxs 1000\n' > train.txt && make profile-opt > make.out 2>&1) || { cat old/make.out; fail "old build"; }
	start_workers "$PWD/old/pgo/merged.profdata"
	distcc_fixture $DCLANG --with-pgo-instrumentation=frontend
	DISTCC_FALLBACK=0 make profile-opt PGO_PROFILE_STORE="$STORE" > make.out 2>&1 || { cat make.out ../worker*.log; fail "make profile-opt"; }
	expect_contains make.out '^distcc \(use\): 2 of 2 compiles on the workers, 0 here$'
	expect_contains make.out 'verify: 2 of 2 compiled units used profile data'
	local_copy interp.o interp.c
	cmp interp.o local-interp.o || fail "a worker's stale pgo/merged.profdata changed interp.o"
	# The control: a compile that named the old path would have used the stale file there.
	cmd=$(grep -- '-c -o interp.o interp.c$' pgo/logs/use.log | sed "s|-fprofile-instr-use=[^ ]*|-fprofile-instr-use=$PWD/pgo/merged.profdata|; s/-o interp.o/-o stale-interp.o/")
	DISTCC_FALLBACK=0 DISTCC_HOSTS="$HOSTS" $cmd || fail "the control compile on the worker: $cmd"
	! cmp -s stale-interp.o local-interp.o || fail "the stale profile makes the same object: the test proves nothing"
}

test_distcc_gcc_profile_compiles_stay_here_and_say_why() {
	start_workers
	distcc_fixture gcc
	expect_contains configure.out "distcc keeps gcc's -fprofile-generate and -fprofile-use compiles on this machine"
	DISTCC_FALLBACK=0 make profile-opt > make.out 2>&1 || { cat make.out; fail "make profile-opt"; }
	for stage in instrument use; do
		expect_contains make.out "^distcc \($stage\): 0 of 2 compiles on the workers, 2 here; 2 here: compiler will emit/use profile info; must be local\$"
	done
	expect_contains make.out 'verify: 2 of 2 compiled units used profile data'
	expect_not_contains pgo/distcc-use.log 'on 127[.]0[.]0[.]1:[0-9]* completed'
}

test_distcc_workers_killed_mid_build_finish_here() {
	start_workers
	distcc_fixture $DCLANG --with-pgo-instrumentation=frontend
	make "$PWD/pgo/merge.stamp" PGO_PROFILE_STORE="$STORE" > make1.out 2>&1 || { cat make1.out; fail "make up to merge"; }
	expect_contains make1.out '^distcc \(instrument\): 2 of 2 compiles on the workers, 0 here$'
	kill $WORKERS
	wait $WORKERS 2>/dev/null || true
	make profile-opt PGO_PROFILE_STORE="$STORE" > make.out 2>&1 || { cat make.out; fail "make profile-opt"; }
	expect_contains make.out '^distcc \(use\): 0 of 2 compiles on the workers, 2 here; 2 here: no worker took it \(failed to distribute\)$'
	expect_contains make.out 'verify: 2 of 2 compiled units used profile data'
}

# Without the source's name, every static function's profile would carry a worker's temporary
# file: configure refuses a clang that cannot be told it in a form distcc passes on, and verify
# refuses a profile so named (made here by distcc without profopt's launcher).
test_distcc_configure_refuses_clang14() {
	start_workers
	mkdir -p new && cd new
	require clang
	setup_fixture
	expect_status 1 ./configure --enable-optimizations CC=clang PROFOPT="$PROFOPT" --with-distcc="$HOSTS" --with-pgo-instrumentation=frontend
	expect_contains out "names a compile's source for its profile \(-Xclang=-main-file-name\)\.\.\. no"
	expect_contains out "with-distcc: a distcc worker compiles a temporary file, and clang names each static function's profile after the file it compiles"
	configured_fixture $DCLANG --with-pgo-instrumentation=frontend
	with_static_function
	make profile-opt CC="distcc $DCLANG" PGO_LAUNCHER= DISTCC_HOSTS="$HOSTS" PGO_PROFILE_STORE="$STORE" > make.out 2>&1 && fail "verify passed a profile named after temporary files"
	expect_contains make.out 'profopt verify: error: [0-9]+ of [0-9]+ functions of .* are named after a distcc worker.s temporary file \(.*distccd_[^:]*\.i:drain\)'
	test ! -e pgo/verify.stamp || fail "a verify stamp claims success"
}

test_distcc_configure_refuses_no_workers() {
	require distcc autoconf gcc
	setup_fixture
	expect_status 1 ./configure --enable-optimizations CC=gcc PROFOPT="$PROFOPT" --with-distcc=localhost
	expect_contains out 'distcc has no worker but this machine, so every compile would run here'
	expect_status 1 ./configure --enable-optimizations CC=gcc PROFOPT="$PROFOPT" --with-distcc=127.0.0.1 --with-icecc
	expect_contains out 'choose one distributed compiler'
}

test_icecc_goes_before_the_compiler() {
	require icecc autoconf gcc
	configured_fixture gcc --with-icecc
	expect_contains Makefile '^CC = /[^ ]*/icecc gcc$'
	expect_contains pgo-config.mk '^PGO_LAUNCHER = /[^ ]*/icecc$'
	expect_status 1 ./configure --enable-optimizations CC=gcc PROFOPT="$PROFOPT" --with-icecc=/nonexistent/icecc
	expect_contains out 'with-icecc: no icecc at /nonexistent/icecc'
}
