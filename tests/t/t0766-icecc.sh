# t0766: the fixture configured --with-icecc builds through an icecream cluster on loopback
# (issue 40): an icecc-scheduler, this machine's iceccd (--no-remote, no compile slots) and two
# worker iceccds, each worker in its own mount namespace where the build's parent directory is
# an empty tmpfs.  Clang's front-end instrumentation compiles both stages on the workers (the use
# stage's profile reaches them inside the compiler's environment); gcc's stay here, and say so.
#
# Three daemons share this host's loopback address: icecream's own test hooks tell them apart
# (ICECC_TEST_SOCKET: each daemon's socket for its clients; ICECC_TEST_REMOTEBUILD: a job the
# scheduler gives 127.0.0.1 at a worker's port is sent to that port).  Each worker reads
# /proc/stat from a snapshot, as a container's lxcfs view would: the workers share this
# machine's CPUs, and icecream's scheduler sends no job to a host without idle CPU time.

# ice_listcs PORT: the scheduler's list of hosts (its text interface, on its port + 1).
ice_listcs() {
	exec 3<> "/dev/tcp/127.0.0.1/$(($1 + 1))" || return 1
	printf 'listcs\nquit\n' >&3
	timeout 5 cat <&3
	exec 3>&-
}

# start_ice NAME ARGS...: an iceccd of the test's cluster (pid added to ICE_PIDS).
start_ice() {
	name=$1 && shift
	ICECC_TEST_SOCKET=$STATE/$name.sock "$@" -s "127.0.0.1:$sport" -n "$net" -N "$name" \
		-b "$STATE/env-$name" -l "$STATE/$name.log" -vvv > "$name.out" 2>&1 &
	ICE_PIDS="$ICE_PIDS $!"
}

# start_cluster: the scheduler, this machine's daemon and two hidden-tree workers, stopped when
# the test ends; the build's icecc talks to this machine's daemon (exported ICECC_TEST_SOCKET).
start_cluster() {
	require icecc iceccd icecc-scheduler unshare clang autoconf
	unshare --mount --propagation private true 2>/dev/null || skip "no mount namespace here (unshare --mount needs CAP_SYS_ADMIN)"
	id icecc > /dev/null 2>&1 || skip "no user icecc (iceccd compiles as it)"
	hide=$(dirname "$PWD")
	# The daemons write their logs, sockets and environments as the user icecc.
	STATE=$(mktemp -d "$hide-ice.XXXXXX") && chown icecc "$STATE" && cp /proc/stat "$STATE/idle-stat"
	ICE_PIDS= net=profopt$$
	trap 'kill $ICE_PIDS 2>/dev/null || true; wait $ICE_PIDS 2>/dev/null; rm -rf "$STATE"' EXIT
	sport=38400
	while [ $sport -lt 38600 ]; do
		sport=$((sport + 10))
		icecc-scheduler -p "$sport" -n "$net" -l "$STATE/scheduler.log" -vvv > scheduler.out 2>&1 &
		pid=$!
		sleep 0.5
		if kill -0 $pid 2>/dev/null; then ICE_PIDS=$pid && break; fi
	done
	[ -n "$ICE_PIDS" ] || skip "no free loopback port for icecc-scheduler in 38410-38600"
	start_ice here iceccd --no-remote -m 0
	for w in 1 2; do
		start_ice worker$w unshare --mount --propagation private sh -c \
			'mount -t tmpfs tmpfs "$1" && mount --bind "$2" /proc/stat && shift 2 && exec "$@"' sh "$hide" "$STATE/idle-stat" \
			iceccd -p $((sport + 2 + w)) -m 2
	done
	for i in $(seq 60); do
		ice_listcs $sport > listcs.out 2>/dev/null
		[ "$(grep -c ' worker[12] (127.0.0.1:[0-9]*) .* load=\([0-9]\{1,2\}\|[0-8][0-9][0-9]\)$' listcs.out)" = 2 ] && break
		sleep 1
	done
	! grep -q 'Cannot use chroot' "$STATE"/worker*.log || skip "iceccd cannot chroot here: no remote jobs"
	[ "$(grep -c ' worker[12] (127.0.0.1:[0-9]*) .* load=\([0-9]\{1,2\}\|[0-8][0-9][0-9]\)$' listcs.out)" = 2 ] ||
		{ cat listcs.out "$STATE"/*.log; fail "the two icecc workers are not ready at the scheduler in 60s"; }
	export ICECC_TEST_SOCKET=$STATE/here.sock ICECC_TEST_REMOTEBUILD=1
	unset ICECC_VERSION
}

# ice_fixture CC ARGS...: the fixture in ./new, configured --with-icecc, built by profile-opt.
ice_fixture() {
	cc=$1; shift
	mkdir -p new && cd new
	configured_fixture "$cc" --with-icecc CFLAGS=-O2 "$@"
	with_static_function
	make profile-opt > make.out 2>&1 || { cat make.out "$STATE"/*.log; fail "make profile-opt"; }
}

test_icecc_clang_both_stages_on_hidden_workers() {
	start_cluster
	ice_fixture clang --with-pgo-instrumentation=frontend
	expect_contains make.out '^icecc \(instrument\): 2 of 2 compiles on the workers, 0 here$'
	expect_contains make.out '^icecc \(use\): 2 of 2 compiles on the workers, 0 here$'
	expect_contains make.out 'verify: 2 of 2 compiled units used profile data'
	static_names_from_source
	# Both workers compiled (the scheduler spread the jobs), in their chroots.
	expect_eq "$(cat "$STATE"/worker*.log | grep -c 'Remote compilation completed with exit code 0')" 4 "compiles the workers completed"
	sha=$(sha256sum pgo/merged.profdata | cut -d' ' -f1)
	expect_contains pgo/icecc-use.log "invoked as: .* -fprofile-instr-use=$PWD/pgo/merged-$sha.profdata .*-c -o interp.o interp.c"
	# A remote object is the object this machine compiles from the same command.
	cmd=$(grep -- '-c -o interp.o interp.c$' pgo/logs/use.log | sed 's/^[^ ]*icecc //; s/-o interp.o/-o local-interp.o/')
	[ -n "$cmd" ] || fail "no compile of interp.o in the use log"
	$cmd || fail "local compile: $cmd"
	cmp interp.o local-interp.o || fail "interp.o from a worker differs from a local compile"
	# Without the profile in its environment a worker fails the compile; icecc does not
	# quietly compile without the profile.
	expect_status 1 env ICECC_DEBUG=debug ICECC_LOGFILE="$PWD/bare.log" icecc $cmd
	expect_contains out 'Could not read profile|No such file'
	expect_contains bare.log 'Have to use host 127\.0\.0\.1:[0-9]+'
}

test_icecc_gcc_profile_compiles_stay_here_and_say_why() {
	start_cluster
	ice_fixture gcc
	expect_contains configure.out "icecc keeps gcc's -fprofile-generate and -fprofile-use compiles on this machine"
	expect_contains make.out '^icecc \(instrument\): 0 of 2 compiles on the workers, 2 here; 2 here: compiler will emit additional local files \(argument -fprofile-generate\)$'
	expect_contains make.out '^icecc \(use\): 0 of 2 compiles on the workers, 2 here; 2 here: compiler will emit additional local files \(argument -fprofile-use\)$'
	expect_contains make.out 'verify: 2 of 2 compiled units used profile data'
}
