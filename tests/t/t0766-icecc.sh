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

# start_ice NAME ARGS...: an iceccd of the test's cluster (pid added to ICE_PIDS, and to
# WORKER_PIDS for a worker).
start_ice() {
	name=$1 && shift
	ICECC_TEST_SOCKET=$STATE/$name.sock "$@" -s "127.0.0.1:$sport" -n "$net" -N "$name" \
		-b "$STATE/env-$name" -l "$STATE/$name.log" -vvv > "$name.out" 2>&1 &
	ICE_PIDS="$ICE_PIDS $!"
	case $name in worker*) WORKER_PIDS="$WORKER_PIDS $!" ;; esac
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
	ICE_PIDS= WORKER_PIDS= net=profopt$$
	trap 'kill $ICE_PIDS 2>/dev/null || true; wait $ICE_PIDS 2>/dev/null || true; rm -rf "$STATE"' EXIT
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

# ice_configured CC ARGS...: the fixture in ./new, configured --with-icecc.
ice_configured() {
	cc=$1; shift
	mkdir -p new && cd new
	configured_fixture "$cc" --with-icecc CFLAGS=-O2 "$@"
	with_static_function
}

# ice_fixture CC ARGS...: the fixture in ./new, configured --with-icecc, built by profile-opt.
ice_fixture() {
	ice_configured "$@"
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

test_icecc_workers_killed_mid_build_finish_here() {
	start_cluster
	ice_configured clang --with-pgo-instrumentation=frontend
	make "$PWD/pgo/merge.stamp" > make1.out 2>&1 || { cat make1.out "$STATE"/*.log; fail "make up to merge"; }
	expect_contains make1.out '^icecc \(instrument\): 2 of 2 compiles on the workers, 0 here$'
	# As a crash would: no word to the scheduler, which reads their connections' end.
	kill -KILL $WORKER_PIDS
	for i in $(seq 20); do
		ice_listcs $sport > listcs.out 2>/dev/null
		if grep -q ' here (' listcs.out && ! grep -q ' worker[12] (' listcs.out; then break; fi
		[ $i -lt 20 ] || { cat listcs.out; fail "the scheduler still lists a killed worker after 10s"; }
		sleep 0.5
	done
	timeout 300 make profile-opt > make.out 2>&1 || { cat make.out "$STATE"/*.log; fail "make profile-opt after the workers died (300s at most)"; }
	expect_contains make.out '^icecc \(use\): 0 of 2 compiles on the workers, 2 here; 2 here: the scheduler gave it to this machine \(no worker was free, or this one ranked first\)$'
	expect_contains make.out 'verify: 2 of 2 compiled units used profile data'
	expect_contains "$STATE/scheduler.log" 'No suitable host found, assigning submitter'
}

# icecream ships the profile inside the compiler's environment, and a worker keeps the
# environments it received: one holding profile A's must not compile B's use stage.
test_icecc_stale_profile_changes_nothing() {
	start_cluster
	# One worker takes every job: the one holding A's environment is asked for B's compiles.
	export ICECC_PREFERRED_HOST=worker1
	ice_fixture clang --with-pgo-instrumentation=frontend
	expect_contains make.out '^icecc \(use\): 2 of 2 compiles on the workers, 0 here$'
	cp pgo/merged.profdata profile-a.profdata && cp pgo/icecc-use.log icecc-use-a.log
	# Profile B: the fixture trained on one task only, instrument to use again.
	printf 'mix\t./toy ppmdxs 1000\n' > train.txt
	make profile-removal > removal.out 2>&1 || { cat removal.out; fail "make profile-removal"; }
	make profile-opt > make2.out 2>&1 || { cat make2.out "$STATE"/*.log; fail "make profile-opt with the new training"; }
	sha_a=$(sha256sum profile-a.profdata | cut -d' ' -f1) sha_b=$(sha256sum pgo/merged.profdata | cut -d' ' -f1)
	[ "$sha_a" != "$sha_b" ] || fail "the new training gave the same profile"
	expect_contains make2.out '^icecc \(use\): 2 of 2 compiles on the workers, 0 here$'
	expect_contains make2.out 'verify: 2 of 2 compiled units used profile data'
	# Another profile is another environment: worker1, still holding A's, installed B's.
	env_a=$(sed -n "s|.*: env: x86_64 '.*/\([0-9a-f]*\)\.tar\.gz'\$|\1|p" icecc-use-a.log | head -n 1)
	env_b=$(sed -n "s|.*: env: x86_64 '.*/\([0-9a-f]*\)\.tar\.gz'\$|\1|p" pgo/icecc-use.log | head -n 1)
	[ -n "$env_a" ] && [ -n "$env_b" ] || fail "no environment named in the use stages' icecc logs"
	[ "$env_a" != "$env_b" ] || fail "profiles A and B went out in the same environment ($env_a)"
	expect_contains "$STATE/worker1.log" "installed x86_64/$env_a "
	expect_contains "$STATE/worker1.log" "installed x86_64/$env_b "
	test -d "$STATE/env-worker1/target=x86_64/$env_a" || fail "worker1 no longer holds profile A's environment"
	expect_eq "$(grep -c 'Remote compilation completed with exit code 0' "$STATE/worker1.log")" 8 "compiles worker1 completed"
	# interp.o is what this machine compiles with profile B, and profile A gives another object
	# (the control: B under another name still gives interp.o, so A differs by its content).
	cmd=$(grep -- '-c -o interp.o interp.c$' pgo/logs/use.log | tail -n 1 | sed 's/^[^ ]*icecc //')
	expect_match "$cmd" "-fprofile-instr-use=$PWD/pgo/merged-$sha_b\\.profdata "
	cp pgo/merged.profdata profile-b.profdata
	for p in a b; do
		c=$(echo "$cmd" | sed "s|-fprofile-instr-use=[^ ]*|-fprofile-instr-use=$PWD/profile-$p.profdata|; s/-o interp.o/-o $p-interp.o/")
		$c || fail "local compile: $c"
	done
	cmp interp.o b-interp.o || fail "interp.o from worker1 differs from a local compile with profile B"
	! cmp -s interp.o a-interp.o || fail "profile A makes the same object: the test proves nothing"
}
