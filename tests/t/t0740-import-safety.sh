# Safe profile import: a bundle is hostile input.  It is unpacked into a private directory;
# only manifest.json and one regular profile file pass, and a .gcda archive only regular .gcda
# files with relative names.  Links, hard links, devices, absolute names, '..' and other files
# refuse the whole bundle: nothing is written inside or outside the build directory, the
# previous profile stays, no stamp claims the import.  A pinned SHA-256 refuses any other file.

# craft tar OUT SPEC...: a tar archive (gzip if OUT ends in .gz), members in order:
#   f:NAME=TEXT  regular file (at the last =)   l:NAME>TARGET  symbolic link
#   h:NAME>TARGET  hard link   c:NAME  character device   d:NAME  directory
# craft bundle OUT PROFILE [--one-line] [--extra=SPEC]... [KEY=VALUE]...: a bundle as export
#   writes it (manifest.json with profile_file and profile_sha256 of PROFILE, then
#   profile/BASENAME), with more members and facts.
craft() {
	python3 - "$@" <<'EOF'
import hashlib, io, json, os, sys, tarfile

def add(t, spec):
    kind, rest = spec[0], spec[2:]
    if kind == "f":
        name, text = rest.rsplit("=", 1)
        data = text.encode()
        info = tarfile.TarInfo(name); info.size = len(data)
        t.addfile(info, io.BytesIO(data)); return
    info = tarfile.TarInfo(rest.split(">", 1)[0])
    if kind in "lh":
        info.type = tarfile.SYMTYPE if kind == "l" else tarfile.LNKTYPE
        info.linkname = rest.split(">", 1)[1]
    elif kind == "c":
        info.type, info.devmajor, info.devminor = tarfile.CHRTYPE, 1, 3
    elif kind == "d":
        info.type, info.mode = tarfile.DIRTYPE, 0o755
    t.addfile(info)

def open_out(path):
    return tarfile.open(path, "w:gz" if path.endswith(".gz") else "w", format=tarfile.PAX_FORMAT)

cmd, out, args = sys.argv[1], sys.argv[2], sys.argv[3:]
if cmd == "tar":
    with open_out(out) as t:
        for spec in args: add(t, spec)
    sys.exit(0)
profile, one_line, extra, facts = args[0], False, [], {}
for a in args[1:]:
    if a == "--one-line": one_line = True
    elif a.startswith("--extra="): extra.append(a[8:])
    else: k, v = a.split("=", 1); facts[k] = v
data = open(profile, "rb").read()
facts["profile_file"] = os.path.basename(profile)
facts["profile_sha256"] = hashlib.sha256(data).hexdigest()
manifest = (json.dumps(facts, separators=(",", ":")) if one_line else json.dumps(facts, indent=2)).encode()
with open_out(out) as t:
    info = tarfile.TarInfo("manifest.json"); info.size = len(manifest)
    t.addfile(info, io.BytesIO(manifest))
    for spec in extra: add(t, spec)
    info = tarfile.TarInfo("profile/" + os.path.basename(profile)); info.size = len(data)
    t.addfile(info, io.BytesIO(data))
EOF
}

# A build directory (build/) with a previous good profile in place, an empty directory
# outside it that hostile members aim at, and a private TMPDIR that must stay empty.
setup_dirs() {
	mkdir -p build outside tmp
	OUTSIDE=$PWD/outside
	export TMPDIR=$PWD/tmp
	echo "previous good profile" > build/profiles.tar
	cp build/profiles.tar good.before
	echo profdata > merged.profdata
}

# import_refused BUNDLE PATTERN [IMPORT-OPTIONS...]: exit 1 with PATTERN in the message, and
# nothing changed: no file written in build/ or outside/, no temporary file left, no stamp.
import_refused() {
	local bundle=$1 pattern=$2
	shift 2
	(cd build && find . | sort) > tree.before
	expect_status 1 "$PROFOPT" import --bundle="$bundle" --dest=build/profiles.tar --stamp=build/merge.stamp "$@"
	expect_contains out "$pattern"
	expect_not_contains out 'checked and installed'
	cmp build/profiles.tar good.before || fail "the previous good profile was replaced"
	test ! -e build/merge.stamp || fail "a stamp claims the refused import"
	(cd build && find . | sort) > tree.after
	cmp tree.before tree.after || { diff tree.before tree.after; fail "files written in the build directory"; }
	[ -z "$(ls -A outside)" ] || fail "written outside the build directory: $(ls -A outside)"
	[ -z "$(ls -A tmp)" ] || fail "temporary files left: $(ls -A tmp)"
}

# A .gcda archive and its bundle: gcda_bundle OUT SPEC... (the manifest says compiler=gcc 12).
gcda_bundle() {
	local out=$1
	shift
	craft tar profiles.tar "$@"
	craft bundle "$out" profiles.tar "compiler=gcc 12"
	rm profiles.tar
}

test_symlink_member_refused() {
	setup_dirs
	gcda_bundle b.tar.gz "f:a.gcda=ok" "l:x.gcda>$OUTSIDE/x.gcda"
	import_refused b.tar.gz "refusing b.tar.gz \(its profile archive\): member 'x.gcda' is a symbolic link"
}

# Two bundles: the first plants a link to a directory outside, the second writes through it.
test_symlink_then_write_through() {
	setup_dirs
	gcda_bundle one.tar.gz "l:evil>$OUTSIDE" "f:a.gcda=ok"
	import_refused one.tar.gz "member 'evil' is a symbolic link"
	test ! -L build/evil || fail "the link was planted"
	# The same in one archive: a link then a file through it.
	gcda_bundle both.tar.gz "l:evil>$OUTSIDE" "f:evil/x.gcda=through"
	import_refused both.tar.gz "member 'evil' is a symbolic link"
	# A link left in the build tree (by an older profopt, or anything else): the second bundle
	# is accepted, and restoring its profile removes the link instead of writing through it.
	gcda_bundle two.tar.gz "f:evil/x.gcda=through" "f:y.gcda=ok"
	"$PROFOPT" import --bundle=two.tar.gz --dest=stash.tar 2> err || { cat err; fail "import of a clean bundle"; }
	ln -s "$OUTSIDE" build/evil
	ln -s "$OUTSIDE/y.gcda" build/y.gcda
	ln -s "$OUTSIDE/z.gcda" build/z.gcda
	"$PROFOPT" stash restore --build-dir=build --archive=stash.tar 2> err || { cat err; fail "stash restore"; }
	expect_contains err "removed the link build/evil: a profile file is never written through a link"
	expect_contains err "removed the link build/z.gcda: a profile file is never a link"
	[ -z "$(ls -A outside)" ] || fail "written through the link: $(ls -A outside)"
	test -d build/evil && ! test -L build/evil || fail "build/evil is not a real directory"
	expect_eq "$(cat build/evil/x.gcda)" through "restored file"
	test -f build/y.gcda && ! test -L build/y.gcda || fail "y.gcda not restored as a file"
	test ! -e build/z.gcda && ! test -L build/z.gcda || fail "the stray link z.gcda stayed"
}

# refused_both GCDA-MEMBER PATTERN OUTER-MEMBER PATTERN (after setup_dirs): a .gcda archive holding the first
# member, and a bundle holding the second, are each refused with their message.
refused_both() {
	gcda_bundle b.tar.gz "f:a.gcda=ok" "$1"
	import_refused b.tar.gz "$2"
	craft bundle outer.tar.gz merged.profdata "--extra=$3"
	import_refused outer.tar.gz "$4"
}

test_dotdot_refused() {
	setup_dirs
	refused_both "f:sub/../../outside/x.gcda=bad" "member 'sub/\.\./\.\./outside/x\.gcda' climbs out of the directory with '\.\.'" \
		"f:../outside/m.json=bad" "refusing outer.tar.gz: member '\.\./outside/m\.json' climbs out"
}

test_absolute_name_refused() {
	setup_dirs
	refused_both "f:$OUTSIDE/abs.gcda=bad" "member '/.*/outside/abs\.gcda' has an absolute name" \
		"f:$OUTSIDE/m.json=bad" "refusing outer.tar.gz: member '/.*/outside/m\.json' has an absolute name"
}

test_device_and_hard_link_refused() {
	setup_dirs
	gcda_bundle dev.tar.gz "c:null.gcda"
	import_refused dev.tar.gz "member 'null\.gcda' is a device"
	refused_both "h:b.gcda>a.gcda" "member 'b\.gcda' is a hard link" \
		"h:profile/x.tar>manifest.json" "refusing outer.tar.gz: member 'profile/x\.tar' is a hard link"
}

test_duplicate_and_foreign_members_refused() {
	setup_dirs
	refused_both "f:./a.gcda=two" "member 'a\.gcda' appears twice" \
		"f:profile/other.profdata=x" "member 'profile/[a-z.]*' is a second profile file"
	craft bundle junk.tar.gz merged.profdata "--extra=f:Makefile=all:"
	import_refused junk.tar.gz "member 'Makefile' is not part of a profile bundle"
}

# A one-line JSON manifest is read as JSON: every fact is seen, mismatches are still refused.
test_one_line_manifest() {
	setup_dirs
	craft bundle one.tar.gz merged.profdata --one-line "compiler=clang 14" "sources=abc"
	expect_eq "$(tar -xOzf one.tar.gz manifest.json | wc -l)" 0 "manifest lines (no newline at all)"
	"$PROFOPT" import --bundle=one.tar.gz --dest=build/got.profdata --manifest-out=m.json compiler="clang 14" sources=abc 2> err ||
		{ cat err; fail "a one-line manifest was not read"; }
	expect_eq "$(cat build/got.profdata)" profdata "imported profile"
	expect_eq "$(json_get m.json sources)" abc "manifest-out"
	import_refused one.tar.gz "sources +profile: abc" sources=xyz
	# Not JSON, or not an object of strings: refused with the reason.
	craft bundle num.tar.gz merged.profdata "compiler=clang 14"
	mkdir x && tar -xzf num.tar.gz -C x && printf '{"profile_file": "merged.profdata", "n": 1}' > x/manifest.json
	tar -czf num.tar.gz -C x manifest.json profile
	import_refused num.tar.gz "manifest.json is not a manifest: the value of \"n\" is not a string"
}

test_profile_symlink_refused() {
	setup_dirs
	craft bundle b.tar.gz merged.profdata "--extra=l:profile/merged.profdata>$OUTSIDE/secret"
	import_refused b.tar.gz "member 'profile/merged\.profdata' is a symbolic link"
	# Only a link: the bundle's profile is the link itself.
	python3 -c '
import io, json, sys, tarfile
m = json.dumps({"profile_file": "merged.profdata", "profile_sha256": "0" * 64}).encode()
with tarfile.open("l.tar.gz", "w:gz") as t:
    i = tarfile.TarInfo("manifest.json"); i.size = len(m); t.addfile(i, io.BytesIO(m))
    i = tarfile.TarInfo("profile/merged.profdata"); i.type = tarfile.SYMTYPE; i.linkname = "/etc/passwd"; t.addfile(i)'
	import_refused l.tar.gz "member 'profile/merged\.profdata' is a symbolic link"
}

test_sha256_pin() {
	setup_dirs
	gcda_bundle b.tar.gz "f:a.gcda=ok"
	local sum
	sum=$(sha256sum b.tar.gz | cut -c1-64)
	import_refused b.tar.gz "refusing b\.tar\.gz: its SHA-256 is $sum, but the profile is pinned to 0{64}" --sha256="$(printf '0%.0s' $(seq 64))"
	expect_status 2 "$PROFOPT" import --bundle=b.tar.gz --dest=build/profiles.tar --sha256=abc
	expect_contains out "64 hexadecimal digits"
	"$PROFOPT" import --bundle=b.tar.gz --dest=build/profiles.tar --stamp=build/merge.stamp \
		--sha256="$(echo "$sum" | tr a-f A-F)" 2> err || { cat err; fail "the pinned bundle was refused"; }
	expect_contains err "has the pinned SHA-256 ${sum:0:12}"
	expect_eq "$(tar -xOf build/profiles.tar a.gcda)" ok "imported profile"
	expect_eq "$(json_get build/merge.stamp imported_from)" b.tar.gz "stamp"
	[ -z "$(ls -A tmp)" ] || fail "temporary files left: $(ls -A tmp)"
}

# The pipeline: a trained build's bundle; an import refused by make leaves the previous good
# profile and no stamp after merge; the pin reaches import through make.
pipeline_refusal() {
	exported_fixture "$1"
	local good profile=$2 sum
	good=$(cd .. && pwd)/a/pgo/profile-export.tar.gz
	sum=$(sha256sum "$good" | cut -c1-64)
	make profile-opt PGO_PROFILE="$good" PGO_PROFILE_SHA256="$sum" > make.out 2>&1 || { cat make.out; fail "pinned import"; }
	expect_contains make.out "has the pinned SHA-256 ${sum:0:12}"
	expect_contains make.out 'verify: interp.o: used profile data'
	cp "pgo/$profile" good.profile
	cp interp.c interp.c.before
	# A hostile bundle: its profile holds a source file (and, for clang, is a link).
	mkdir ../evil && tar -xzf "$good" -C ../evil
	if [ "$1" = gcc ]; then
		(cd ../evil/profile && mkdir x && tar -xf profiles.tar -C x && echo 'int hacked;' > x/interp.c &&
			tar -cf profiles.tar -C x . && rm -rf x)
	else
		ln -sf /etc/passwd ../evil/profile/merged.profdata
	fi
	python3 -c '
import hashlib, json, sys
m = json.load(open(sys.argv[1])); m["profile_sha256"] = hashlib.sha256(open(sys.argv[2], "rb").read()).hexdigest()
json.dump(m, open(sys.argv[1], "w"), indent=2)' ../evil/manifest.json "../evil/profile/$profile"
	tar -czf ../evil.tar.gz -C ../evil manifest.json profile
	# Run the import again (as a new PGO_PROFILE in this directory would).
	rm -f pgo/merge.stamp pgo/clean.stamp pgo/use.stamp pgo/verify.stamp
	if make profile-opt PGO_PROFILE=../evil.tar.gz > evil.out 2>&1; then cat evil.out; fail "a hostile bundle was used"; fi
	expect_contains evil.out "refusing .*evil.tar.gz.*: member '(\./)?(interp\.c|profile/merged\.profdata)' (is not a \.gcda file|is a symbolic link)"
	cmp interp.c interp.c.before || fail "the bundle replaced a source file"
	cmp "pgo/$profile" good.profile || fail "the previous good profile was replaced"
	for s in merge clean use verify; do test ! -e "pgo/$s.stamp" || fail "pgo/$s.stamp claims success"; done
	# The pin refuses the good bundle's neighbour.
	if make profile-opt PGO_PROFILE=../evil.tar.gz PGO_PROFILE_SHA256="$sum" > pin.out 2>&1; then fail "pin ignored"; fi
	expect_contains pin.out "refusing .*evil.tar.gz: its SHA-256 is [0-9a-f]{64}, but the profile is pinned to $sum"
	cmp "pgo/$profile" good.profile || fail "the previous good profile was replaced"
	test ! -e pgo/merge.stamp || fail "pgo/merge.stamp claims success"
}

test_pipeline_refusal_gcc() { pipeline_refusal gcc profiles.tar; }
test_pipeline_refusal_clang() { pipeline_refusal clang merged.profdata; }

# A stash (pgo/profiles.tar) is checked the same way when the clean stage restores it: a
# stash left by an older profopt, or replaced, writes nothing unless every member passes.
test_stash_restore_refuses_hostile_stash() {
	setup_dirs
	echo 'int main;' > build/interp.c
	(cd build && find . | sort) > tree.before
	craft tar s1.tar "f:a.gcda=ok" "l:b.gcda>$OUTSIDE/b"
	craft tar s2.tar "f:a.gcda=ok" "f:interp.c=hacked"
	craft tar s3.tar "f:a.gcda=ok" "f:../outside/c.gcda=bad"
	expect_status 1 "$PROFOPT" stash restore --build-dir=build --archive=s1.tar
	expect_contains out "refusing .*/s1\.tar: member 'b\.gcda' is a symbolic link"
	expect_status 1 "$PROFOPT" stash restore --build-dir=build --archive=s2.tar
	expect_contains out "refusing .*/s2\.tar: member 'interp\.c' is not a profile file"
	expect_status 1 "$PROFOPT" stash restore --build-dir=build --archive=s3.tar
	expect_contains out "refusing .*/s3\.tar: member '\.\./outside/c\.gcda' climbs out"
	(cd build && find . | sort) > tree.after
	cmp tree.before tree.after || { diff tree.before tree.after; fail "files written in the build directory"; }
	expect_eq "$(cat build/interp.c)" 'int main;' "the source file"
	[ -z "$(ls -A outside)" ] || fail "written outside the build directory: $(ls -A outside)"
}
