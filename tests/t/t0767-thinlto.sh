# t0767: ThinLTO's backends as jobs (issue 40 item 4, Misc/DISTRIBUTED.md): the fixture
# configured --with-thinlto-workers links with -flto=thin in the use stage through
# `profopt thin-link`: an index-only link, each module's backend compile sent to a worker (a
# command that runs a shell line in its own mount namespace where the build's parent directory
# is an empty tmpfs, as ssh to another machine would), then the link of the native objects.

TCLANG=clang-19

# make_workers: ./w1 and ./w2, each running its shell line with the build's parent hidden.
make_workers() {
	require unshare $TCLANG autoconf
	unshare --mount --propagation private true 2>/dev/null || skip "no mount namespace here (unshare --mount needs CAP_SYS_ADMIN)"
	hide=$(dirname "$PWD")
	for w in w1 w2; do
		printf '#!/bin/sh\necho "%s ran a job" >> %s/%s.jobs\nexec unshare --mount --propagation private sh -c '\''mount -t tmpfs tmpfs "$1" && exec sh -c "$2"'\'' %s %s "$1"\n' \
			"$w" "$hide-$w" "$w" "$w" "$hide" > "$w"
		chmod +x "$w"
	done
	W1=$PWD/w1 W2=$PWD/w2
	trap 'rm -rf "$hide-w1" "$hide-w2"' EXIT
	mkdir -p "$hide-w1" "$hide-w2"
}

# thin_fixture WORKERS ARGS...: the fixture in ./new, linked with ThinLTO, its backends on WORKERS.
thin_fixture() {
	workers=$1; shift
	mkdir -p new && cd new
	configured_fixture $TCLANG --with-thinlto-workers="$workers" CFLAGS="-O2 -flto=thin" "$@"
}

test_thinlto_backends_on_hidden_workers() {
	make_workers
	thin_fixture "$W1;$W2"
	expect_contains Makefile '^CC = /[^ ]*/pgo-launch/thin-link clang-19$'
	expect_contains configure.out 'ThinLTO links of the use stage run their backends through profopt thin-link, on: '
	PGO_THINLTO_FALLBACK=0 make profile-opt > make.out 2>&1 || { cat make.out; fail "make profile-opt"; }
	expect_contains pgo/thinlto/summary.txt '^thin-link \(toy\): 2 of 2 backends on the workers, 0 here; index [0-9.]+ s, backends [0-9.]+ s, link [0-9.]+ s$'
	expect_contains make.out '^thin-link \(use\): 1 link split, 2 of 2 backends on the workers, 0 here$'
	expect_contains make.out 'verify: 2 of 2 compiled units used profile data'
	expect_contains make.out '^ *total +ok'
	expect_eq "$(cat "$hide-w1/w1.jobs" | wc -l) $(cat "$hide-w2/w2.jobs" | wc -l)" "1 1" "jobs per worker"
	# each job's tar (the module and its imports) is gone once the job ended
	expect_eq "$(ls pgo/thinlto/toy/jobs | grep -c '\.tar$')" 0 "job tars left"
	expect_eq "$(cut -f2 pgo/thinlto/toy/times.tsv | sort | uniq -c | awk '{print $1}' | tr '\n' ' ')" "1 1 1 " "times.tsv's rows"
	# The program is the native objects' link: no bitcode in it, and it runs.
	! grep -q -a "$(printf 'BC\300\336')" toy || fail "toy holds bitcode"
	./toy ppas 1000 > /dev/null || fail "toy ppas"
	# A worker's object is the object this machine's backend makes from the same index.
	i=0
	for m in $(sed 's|.*/||' pgo/thinlto/toy/modules.list); do
		$TCLANG -O2 -Wno-unused-command-line-argument -c -x ir $m -fthinlto-index=pgo/thinlto/toy/$m.thinlto.bc -o here-$m ||
			fail "the backend here for $m"
		cmp pgo/thinlto/toy/native/$i.o here-$m || fail "$m's backend on a worker differs from one here"
		i=$((i + 1))
	done
	expect_eq "$i" 2 "modules"
}

test_thinlto_worker_killed_finishes_here_and_says_so() {
	make_workers
	printf '#!/bin/sh\nkill -9 $$\n' > killed && chmod +x killed
	thin_fixture "$W1;$PWD/killed"
	make profile-opt > make.out 2>&1 || { cat make.out; fail "make profile-opt"; }
	expect_contains make.out '^thin-link \(use\): 1 link split, 1 of 2 backends on the workers, 1 here; it failed on the worker$'
	expect_contains make.out 'verify: 2 of 2 compiled units used profile data'
	expect_contains make.out '^ *total +ok'
}

test_thinlto_no_fallback_fails_loudly_and_no_stamp() {
	make_workers
	thin_fixture "false"
	PGO_THINLTO_FALLBACK=0 make profile-opt > make.out 2>&1 && fail "a link whose workers all failed passed with fallback off"
	expect_contains make.out 'thin-link: error: 2 of 2 backends failed: toy is not linked'
	test ! -e pgo/use.stamp || fail "a use stamp claims success"
	test ! -e toy || fail "an empty toy was left"
}

# Archives: a backend needs each module as a file, so thin-link unpacks an archive's members
# and links a thin archive of them; what the link took from it comes back as native objects.
test_thinlto_archive_members_become_modules() {
	make_workers
	printf 'int helper(int);\nint main(int c, char **v) { return helper(c) == 4 ? 0 : 1; }\n' > a.c
	printf 'int helper(int x) { return x * 3 + 1; }\n' > b.c
	printf 'int unused(int x) { return x - 1; }\n' > u.c
	for f in a b u; do $TCLANG -O2 -flto=thin -c $f.c -o $f.o || fail "compile $f"; done
	llvm-ar-19 rcs libb.a b.o u.o || fail "ar"
	"$PROFOPT" thin-link --dir=lto --worker="$W1" --worker="$W2" --no-fallback -- $TCLANG -O2 -flto=thin a.o libb.a -o prog > out 2>&1 || { cat out; fail "thin-link"; }
	expect_contains out '^thin-link \(prog\): 2 of 2 backends on the workers, 0 here'
	./prog || fail "prog"
	expect_eq "$(sed 's|.*/||' lto/prog/modules.list | sort | tr '\n' ' ')" "a.o b.o " "the modules linked"
	# the native archive holds what the link took: b.o's object, not u.o
	# As CPython's build runs it: objects named from a subdirectory, DIR absolute beside it, so
	# the unpacked members' names climb out of the build directory ("../lto/...").
	mkdir sub && (cd sub && "$PROFOPT" thin-link --dir="$PWD/../lto2" --worker="$W1" --no-fallback -- \
		$TCLANG -O2 -flto=thin ../a.o ../libb.a -o prog) > out2 2>&1 || { cat out2; fail "thin-link from a subdirectory"; }
	expect_contains out2 '^thin-link \(prog\): 2 of 2 backends on the workers, 0 here'
	# each index file is under the link's directory: a level of it ("_") for the ".." of the names
	expect_contains lto2/prog/modules.list '^\.\./lto2/prog/_/\.\./lto2/prog/ar/0/b\.o$'
	test -f lto2/prog/lto2/prog/ar/0/b.o.thinlto.bc || fail "b.o's index is not in its link's directory" 
	sub/prog || fail "sub/prog"
	expect_eq "$(llvm-ar-19 t lto/prog/ar/0.native.a | sed 's|.*/||' | tr '\n' ' ')" "1.o " "the native archive's members"
}

# A worker that never answers is stopped at --timeout, and its backend runs here.
test_thinlto_hung_worker_is_stopped_and_its_job_runs_here() {
	require $TCLANG
	printf 'int main(void) { return 0; }\n' > m.c
	$TCLANG -O2 -flto=thin -c m.c -o m.o || fail "compile"
	printf '#!/bin/sh\nexec sleep 600\n' > hung && chmod +x hung
	"$PROFOPT" thin-link --dir=lto --worker="$PWD/hung" --timeout=2 -- $TCLANG -flto=thin m.o -o m > out 2>&1 || { cat out; fail "thin-link"; }
	expect_contains out '^thin-link \(m\): 0 of 1 backends on the workers, 1 here \(the worker took longer than the timeout\)'
	"$PROFOPT" thin-link --dir=lto --stage-line=use > line.txt || fail "--stage-line"
	expect_contains line.txt '^thin-link \(use\): 1 link split, 0 of 1 backends on the workers, 1 here; the worker took longer than the timeout$'
	./m || fail "m"
}

# Compiles and links without -flto=thin run as they are; a bad worker list or a missing command is a usage error.
test_thinlto_other_commands_pass_through() {
	require $TCLANG
	printf 'int main(void) { return 0; }\n' > m.c
	"$PROFOPT" thin-link --dir=lto --worker=false -- $TCLANG -O2 -c m.c -o m.o || fail "a compile through thin-link"
	"$PROFOPT" thin-link --dir=lto --worker=false -- $TCLANG -O2 m.o -o m || fail "a plain link through thin-link"
	test ! -e lto || fail "thin-link made its directory for a plain command"
	# a linker's -E (-Xlinker -E, export the symbols) is no preprocessing: the link is split
	$TCLANG -O2 -flto=thin -c m.c -o t.o || fail "compile t.o"
	"$PROFOPT" thin-link --dir=lto -- $TCLANG -flto=thin -Xlinker -E t.o -o t > out 2>&1 || { cat out; fail "thin-link -Xlinker -E"; }
	expect_contains out '^thin-link \(t\): 0 of 1 backends on the workers, 1 here'
	rm -rf lto
	expect_status 2 "$PROFOPT" thin-link --dir=lto
	expect_contains out 'no link command given'
}

# The backends make the code clang's in-process ThinLTO link makes, at the level the plugin
# would use: a link without -O is -O2's code, not -O0's (whose frames overflowed CPython's
# recursion check, deep_recursion (now the stack budget), in the first CPython build through thin-link).  Compared by each function's instructions, addresses left out.
test_thinlto_backend_code_is_the_in_process_links() {
	require $TCLANG objdump
	printf 'int step(int);\n__attribute__((noinline)) int walk(int n) { int s = 0; for (int i = 0; i < n; i++) s += step(i) * i; return s; }\nint main(int c, char **v) { return walk(c * 1000) & 1; }\n' > a.c
	printf 'int step(int x) { return x ^ (x >> 3); }\n' > b.c
	for f in a b; do $TCLANG -O2 -flto=thin -c $f.c -o $f.o || fail "compile $f"; done
	functions() { objdump -d --no-show-raw-insn "$1" | awk '/^[0-9a-f]+ <(walk|main)>:/ { on = 1; print $2; next } /^$/ { on = 0 } on { sub(/^ *[0-9a-f]+:\t/, ""); gsub(/[0-9a-f]+ <[^>]*>/, "ADDR"); if ($0 !~ /^(nop|xchg +%ax,%ax|data16|cs nop)/) print }'; }
	for level in "" -O2 -O3 -Os; do
		$TCLANG $level -flto=thin a.o b.o -o inproc || fail "in-process link $level"
		"$PROFOPT" thin-link --dir=lto -- $TCLANG $level -flto=thin a.o b.o -o split > out 2>&1 || { cat out; fail "thin-link $level"; }
		functions inproc > inproc.s && functions split > split.s
		[ -s inproc.s ] || fail "no walk or main in the program"
		diff inproc.s split.s || fail "the split link's code differs from the in-process link's (link ${level:-without -O})"
	done
	expect_contains lto/split/jobs/0.here.log ' -O2 '
	# Below -O2 the plugin's pipeline is not a backend compile's: the link runs in one process.
	"$PROFOPT" thin-link --dir=lto -- $TCLANG -O1 -flto=thin a.o b.o -o low > out 2>&1 || { cat out; fail "thin-link -O1"; }
	expect_contains out '^thin-link \(low\): linked in one process: below -O2'
	test ! -e lto/low || fail "an -O1 link was split"
	# each link's record, summed up as pgo.mk prints it for the stage
	"$PROFOPT" thin-link --dir=lto --stage-line=use > line.txt || fail "--stage-line"
	expect_contains line.txt '^thin-link \(use\): 4 links split, 0 of 8 backends on the workers, 8 here; 1 link in one process \(below -O2\)$'
	expect_status 2 "$PROFOPT" thin-link --dir=lto --stage-line=use -- $TCLANG a.o -o x
	expect_contains out 'stage-line runs no link command'
	printf 'prog\tmany\t2\t\n' >> lto/links.tsv
	expect_status 1 "$PROFOPT" thin-link --dir=lto --stage-line=use
	expect_contains out 'lto/links\.tsv:6: not OUTPUT, backends on the workers, backends, why'
}

# Issue 51: a link's directory is DIR/NAME for every output name, never DIR itself, its parent or
# another of DIR's files, so that removing it before the link destroys nothing thin-link does not own.
test_thinlto_output_names_never_map_onto_or_above_dir() {
	require $TCLANG
	printf 'int main(void) { return 0; }\n' > m.c
	$TCLANG -O2 -flto=thin -c m.c -o m.o || fail "compile"
	mkdir -p pgo/thinlto/other && echo keep > pgo/keep && echo keep > pgo/thinlto/other/keep
	echo keep > pgo/thinlto/use.txt && printf 'x\t-\t-\t\n' > pgo/thinlto/links.tsv
	for o in .. . '' ../up "$PWD/abs" a/../.. links.tsv use.txt _x; do
		"$PROFOPT" thin-link --dir=pgo/thinlto -- $TCLANG -O2 -flto=thin m.o -o "$o" > out 2>&1 || true
		for f in pgo/keep pgo/thinlto/other/keep pgo/thinlto/use.txt pgo/thinlto/links.tsv; do
			test -f $f || fail "the link with -o '$o' removed $f"
		done
	done
	# percent-encoded: the absolute name is its path with each '/' as %2F
	expect_eq "$(ls -a pgo/thinlto | sed "s|^$(echo "$PWD" | sed 's|/|%2F|g')%2Fabs\$|ABS|" | LC_ALL=C sort | tr '\n' ' ')" \
		"% %2E %2E. %2E.%2Fup . .. ABS _x a%2F..%2F.. links%2Etsv links.tsv other use%2Etxt use.txt " "the links' directories"
	# two outputs that differ in '/' or '_' have directories of their own; a newline or an
	# escape in the name reaches neither the module list nor a terminal
	mkdir -p a
	"$PROFOPT" thin-link --dir=pgo/thinlto -- $TCLANG -O2 -flto=thin m.o -o a/b > out 2>&1 || { cat out; fail "a/b"; }
	"$PROFOPT" thin-link --dir=pgo/thinlto -- $TCLANG -O2 -flto=thin m.o -o a_b > out 2>&1 || { cat out; fail "a_b"; }
	test -f pgo/thinlto/a%2Fb/modules.list && test -f pgo/thinlto/a_b/modules.list || fail "a/b and a_b share a directory"
	local odd; odd=$(printf 'x\033[31my\tz')
	"$PROFOPT" thin-link --dir=pgo/thinlto -- $TCLANG -O2 -flto=thin m.o -o "$odd" > out 2>&1 || { cat out; fail "an odd name"; }
	expect_contains out '^thin-link \(x\\x1b\[31my\\x09z\): 0 of 1 backends on the workers, 1 here'
	"$PROFOPT" thin-link --dir=pgo/thinlto --stage-line=use > line.txt || fail "--stage-line after an odd name"
	expect_contains line.txt '^thin-link \(use\): [0-9]+ links split'
}

# A module named with ".." (from a subdirectory, DIR relative) has its index files written
# inside its link's directory: thin-link links it from a hard link there.
test_thinlto_dotdot_modules_stay_inside_the_link_dir() {
	require $TCLANG
	printf 'int helper(int);\nint main(int c, char **v) { return helper(c) == 4 ? 0 : 1; }\n' > a.c
	printf 'int helper(int x) { return x * 3 + 1; }\n' > b.c
	for f in a b; do $TCLANG -O2 -flto=thin -c $f.c -o $f.o || fail "compile $f"; done
	mkdir -p sub/x && echo keep > sub/x/keep
	(cd sub/x && "$PROFOPT" thin-link --dir=lto -- $TCLANG -O2 -flto=thin ../../a.o ../../b.o -o prog) > out 2>&1 || { cat out; fail "thin-link"; }
	expect_contains out '^thin-link \(prog\): 0 of 2 backends on the workers, 2 here'
	sub/x/prog || fail "prog"
	expect_eq "$(find . -name '*.thinlto.bc' -o -name '*.imports' | grep -v '^\./sub/x/lto/prog/' | tr '\n' ' ')" "" "index files outside the link's directory"
	# an archive left packed (two members of one name), which the split link cannot read from:
	# linked in one process (it stopped, "not LLVM bitcode")
	printf 'int other(int x) { return x; }\n' > c.c && mkdir -p d && $TCLANG -O2 -flto=thin -c c.c -o d/b.o || fail "compile c"
	llvm-ar-19 qcs libp.a b.o d/b.o || fail "ar"
	expect_eq "$(llvm-ar-19 t libp.a | tr '\n' ' ')" "b.o b.o " "the packed archive's members"
	(cd sub/x && "$PROFOPT" thin-link --dir=lto -- $TCLANG -O2 -flto=thin ../../a.o ../../libp.a -o prog2) > out 2>&1 || { cat out; fail "thin-link with a packed archive"; }
	expect_contains out '^thin-link \(prog2\): linked in one process: an archive'"'"'s members are not files of their own'
	expect_eq "$(find . -name '*.thinlto.bc' | grep -v '^\./sub/x/lto/prog/' | tr '\n' ' ')" "" "index files outside the link's directory"
	sub/x/prog2 || fail "prog2"
	# a thin archive names its members from its own directory ("../../b.o"): linked in one process
	mkdir -p t/u && (cd t/u && llvm-ar-19 rcsT libt.a ../../b.o) || fail "thin ar"
	(cd sub/x && "$PROFOPT" thin-link --dir=lto -- $TCLANG -O2 -flto=thin ../../a.o ../../t/u/libt.a -o prog3) > out 2>&1 || { cat out; fail "thin-link with a thin archive"; }
	expect_contains out '^thin-link \(prog3\): linked in one process: .*thin archive'
	sub/x/prog3 || fail "prog3"
}

# A worker's reply is used only when it is a whole object under the limit; else its backend runs
# here, and the summary says so.
test_thinlto_worker_reply_whole_and_bounded() {
	require $TCLANG
	printf 'int main(void) { return 0; }\n' > m.c
	$TCLANG -O2 -flto=thin -c m.c -o m.o || fail "compile"
	# cut short: the first 100 bytes of a real object (its ELF magic, no section headers)
	printf '#!/bin/sh\nsh -c "$1" | head -c 100\n' > cut && chmod +x cut
	"$PROFOPT" thin-link --dir=lto --worker="$PWD/cut" -- $TCLANG -O2 -flto=thin m.o -o m > out 2>&1 || { cat out; fail "thin-link cut"; }
	expect_contains out '^thin-link \(m\): 0 of 1 backends on the workers, 1 here \(the worker sent no whole object\)'
	./m || fail "m"
	# without end: stopped at the limit, never the whole disk
	printf '#!/bin/sh\nprintf "\\177ELF"; exec cat /dev/zero\n' > endless && chmod +x endless
	"$PROFOPT" thin-link --dir=lto --worker="$PWD/endless" -- $TCLANG -O2 -flto=thin m.o -o m > out 2>&1 || { cat out; fail "thin-link endless"; }
	expect_contains out '^thin-link \(m\): 0 of 1 backends on the workers, 1 here \(the worker sent more than an object'"'"'s limit\)'
	test ! -e lto/m/native/0.o.tmp || fail "the endless reply was left"
	./m || fail "m"
	expect_eq "$(cut -f2 lto/m/times.tsv | tail -n +2)" "here" "where the backend ran"
}

# With fallback off a backend a worker failed runs nowhere: the words count it failed, not here.
test_thinlto_no_fallback_summary_counts_failed_not_here() {
	require $TCLANG
	printf 'int main(void) { return 0; }\n' > m.c
	$TCLANG -O2 -flto=thin -c m.c -o m.o || fail "compile"
	"$PROFOPT" thin-link --dir=lto --worker=false --no-fallback -- $TCLANG -O2 -flto=thin m.o -o m > out 2>&1 && fail "a failed backend linked"
	expect_contains out '^thin-link \(m\): 0 of 1 backends on the workers, 0 here, 1 failed \(fallback off'
	expect_eq "$(cut -f2 lto/m/times.tsv | tail -n +2)" "failed" "where the backend ran"
	test ! -e lto/links.tsv || fail "a link that failed was recorded as split"
}

# Issue 51: configure's notice lists the workers as thin-link takes them (split at ';', blank
# ones dropped): a list of no command says the backends run here, not "on: ;".
test_thinlto_configure_notice_lists_the_workers_as_used() {
	require $TCLANG autoconf
	setup_fixture
	./configure --enable-optimizations CC=$TCLANG PROFOPT="$PROFOPT" --with-thinlto-workers=' ; ' > c1.out 2>&1 || { cat c1.out; fail "configure"; }
	expect_contains c1.out 'through profopt thin-link, here \(the worker list names no command\)$'
	./configure --enable-optimizations CC=$TCLANG PROFOPT="$PROFOPT" --with-thinlto-workers='ssh a;; ssh b ;' > c2.out 2>&1 || { cat c2.out; fail "configure"; }
	expect_contains c2.out 'through profopt thin-link, on: ssh a; ssh b$'
	./configure --enable-optimizations CC=$TCLANG PROFOPT="$PROFOPT" --with-thinlto-workers > c3.out 2>&1 || { cat c3.out; fail "configure"; }
	expect_contains c3.out 'through profopt thin-link, here$'
}

# merge's --weighted takes a workload's directory under --profile-dir, whose raw files are the
# ones checked before the merge (one elsewhere went to llvm-profdata unchecked).
test_merge_weighted_dir_under_the_profile_dir() {
	mkdir -p raw/a other
	expect_status 2 "$PROFOPT" merge --family=clang --profile-dir=raw --weighted=other:2
	expect_contains out "weighted=other:2: the workload's directory is not under --profile-dir=raw"
	expect_status 2 "$PROFOPT" merge --family=clang --profile-dir=raw --weighted=raw/../other:2
	expect_status 1 "$PROFOPT" merge --family=clang --profile-dir=raw --weighted=raw/a:2
	expect_contains out 'no profile data for the workload in raw/a'
}
