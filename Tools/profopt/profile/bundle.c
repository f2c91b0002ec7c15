/* bundle.c - `profopt export` and `profopt import`: a profile as a reusable artifact, a tar.gz
 * of manifest.json (flat JSON strings: what the profile was made from, its SHA-256) and profile/
 * (merged.profdata, or profiles.tar of .gcda files relative to the build directory).  Import
 * refuses a profile made from other sources or another compiler unless --force.
 * A bundle is hostile input: unpacked by libarchive into a fresh private directory, only
 * manifest.json and one regular profile file; a .gcda archive inside is checked member by member
 * and written again from what passed.  relocate_root: builds that put an absolute directory
 * into object paths (CPython 3.11's setup.py) get .gcda files under it; import renames the
 * archive's members from the exporter's directory to this build's (a plain string match). */
#include "commands.h"
#include "format/facts.h"
#include "lib/json.h"
#include "lib/output.h"
#include "lib/sha256.h"
#include "format/stamp.h"
#include "lib/tarfile.h"
#include "lib/util.h"
#include "lib/walk.h"

#include <errno.h>
#include <fcntl.h>
#include <libgen.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

struct export_options {
	const char *profile, *output, *write_manifest;
	struct option_list manifest;
};

static const struct option_spec export_options[] = {
	OPT_STRING("profile", 0, struct export_options, profile, "FILE",
		   "the profile: a merged .profdata, or the tar of .gcda files"),
	OPT_STRING("output", 0, struct export_options, output, "BUNDLE", "the bundle to write (tar.gz)"),
	OPT_STRING("write-manifest", 0, struct export_options, write_manifest, "JSON",
		   "write the manifest alone to JSON (the record installed beside an optimized interpreter)"),
	OPT_LIST("manifest", 0, struct export_options, manifest, "KV-FILE",
		 "facts for the manifest, KEY=VALUE one per line (repeatable)"),
	OPT_END,
};

const struct command_options options_export = {
	"export",
	"--profile=FILE (--output=BUNDLE | --write-manifest=JSON) [--manifest=KV-FILE] [KEY=VALUE...]",
	"Writes BUNDLE: the profile and manifest.json, the facts given (--manifest, KEY=VALUE)\n"
	"with profile_sha256, created and profopt_version.\n",
	.options = export_options,
};

struct import_opts {
	const char *bundle, *dest, *manifest_out, *stamp, *pin, *relocate_root;
	char *root; /* --relocate-root, made absolute */
	int force;
	long long max_inflate, max_unpacked; /* 0: the defaults (tar_unpack_limit) */
	struct option_list expect;
	struct facts want;
};

#define O struct import_opts
static const struct option_spec import_options[] = {
	OPT_STRING("bundle", 0, O, bundle, "BUNDLE", "the bundle to import (profopt export)"),
	OPT_STRING("dest", 0, O, dest, "FILE", "where its profile goes"),
	OPT_LIST("expect", 0, O, expect, "KV-FILE", "facts the manifest must match, KEY=VALUE a line (repeatable)"),
	OPT_FLAG("force", 0, O, force, "import even when facts differ (they are listed all the same)"),
	OPT_STRING("sha256", 0, O, pin, "HEX", "BUNDLE must have this SHA-256, checked before it is read"),
	OPT_STRING("manifest-out", 0, O, manifest_out, "FILE", "write the bundle's manifest (JSON) to FILE"),
	OPT_STAMP(O, stamp),
	OPT_STRING("relocate-root", 0, O, relocate_root, "DIR", "rename .gcda members under the manifest's relocate_root to DIR"),
	OPT_INT("max-inflate", 0, O, max_inflate, "N", 1, LLONG_MAX, "unpack to at most N times the size (default 100)"),
	OPT_INT("max-unpacked", 0, O, max_unpacked, "BYTES", 1, LLONG_MAX, "and to at most BYTES (default 1 GiB)"),
	OPT_END,
};
#undef O

const struct command_options options_import = {
	"import",
	"--bundle=BUNDLE --dest=FILE [OPTIONS] [KEY=VALUE...]",
	"Unpacks BUNDLE (only manifest.json and one regular profile file), checks the manifest\n"
	"against the facts expected and the profile's SHA-256, and writes the profile to FILE.\n",
	.options = import_options,
	"Exit status: 0 imported, 1 refused or damaged, 2 bad usage.\n",
};

static char *file_sha256(const char *path)
{
	char sum[SHA256_HEX_LEN + 1];
	if (sha256_file(path, sum) < 0)
		fatal("cannot read %s: %s", path, strerror(errno));
	return xstrdup(sum);
}

int cmd_export(int argc, char **argv)
{
	struct export_options o = {0};
	struct facts f = {0};
	int first = options_parse(&options_export, argc, argv, &o);
	for (int i = 0; i < o.manifest.n; i++)
		facts_load_kv_file(&f, o.manifest.v[i]);
	for (int i = first; i < argc; i++)
		facts_add_kv(&f, argv[i], NULL);
	const char *profile = o.profile, *output = o.output, *record = o.write_manifest;
	if (!profile || (!output && !record))
		usage_error("--profile=FILE and --output=BUNDLE or --write-manifest=JSON are required");
	struct stat st;
	if (lstat(profile, &st) < 0 || !S_ISREG(st.st_mode))
		fatal("no profile %s to export (run make profile-opt first)", profile);

	char *sum = file_sha256(profile), when[32];
	time_t t = time(NULL);
	strftime(when, sizeof when, "%Y-%m-%dT%H:%M:%SZ", gmtime(&t));
	char *copy = xstrdup(profile), *name = basename(copy);
	facts_set(&f, "profile_file", name);
	facts_set(&f, "profile_sha256", sum);
	facts_set(&f, "created", when);
	facts_set(&f, "profopt_version", PROFOPT_VERSION);
	if (record)
		facts_write_json(&f, record);
	if (output) {
		char *json = facts_to_json(&f), *member = xasprintf("profile/%s", name);
		struct tar_out *tar = tar_create(output, 1);
		tar_add_data(tar, "manifest.json", json, strlen(json));
		tar_add_dir(tar, "profile");
		tar_add_file(tar, member, profile);
		tar_close(tar);
		fprintf(stderr, "export: %s (%lld bytes of profile, sha256 %.12s...)\n", printable(output), (long long)st.st_size, sum);
	}
	return 0;
}

/* ---- import */

/* What a bundle may hold: manifest.json, one profile/NAME.profdata or .tar (NAME into ctx). */
static char *accept_bundle_member(const char *name, void *ctx, const char **why)
{
	char **profile = ctx;
	if (strcmp(name, "manifest.json") == 0)
		return xstrdup(name);
	const char *base = starts_with(name, "profile/") ? name + 8 : NULL;
	if (!base || strchr(base, '/') || !(ends_with(base, ".profdata") || ends_with(base, ".tar"))) {
		*why = "is not part of a profile bundle (manifest.json, and profile/NAME.profdata or profile/NAME.tar)";
		return NULL;
	}
	if (*profile) {
		*why = "is a second profile file (a bundle holds one)";
		return NULL;
	}
	*profile = xstrdup(base);
	return xstrdup(name);
}

/* GCC's profile: .gcda files; those under relocate_root `from` (the bundle's) move to `to`. */
struct gcda_members {
	const char *from, *to;
	int holding, moved; /* member names that hold `from`, and those renamed */
};

static char *accept_gcda(const char *name, void *ctx, const char **why)
{
	struct gcda_members *g = ctx;
	if (!ends_with(name, ".gcda")) {
		*why = "is not a .gcda file";
		return NULL;
	}
	if (!g->from || !strstr(name, g->from))
		return xstrdup(name);
	g->holding++;
	size_t flen = strlen(g->from);
	for (const char *at = strstr(name, g->from); at; at = strstr(at + 1, g->from))
		if (at[flen] == '/') {
			g->moved++;
			return xasprintf("%.*s%s%s", (int)(at - name), name, g->to, at + flen);
		}
	return xstrdup(name);
}

/* An absolute directory, without trailing slashes; NULL if it is not one. */
static char *absolute_dir(const char *dir)
{
	size_t n = dir && dir[0] == '/' ? strlen(dir) : 0;
	while (n > 1 && dir[n - 1] == '/')
		n--;
	return n > 1 ? xasprintf("%.*s", (int)n, dir) : NULL;
}

/* Checks the .gcda archive (relocating its members) and writes it again as dest from the
 * files that passed, unpacked in a private directory. */
static void import_gcda_archive(const char *bundle, const char *archive, const char *dest, const char *old_root,
				const char *root, unsigned long long limit)
{
	struct gcda_members g = {0};
	char *from = root && old_root ? absolute_dir(old_root) : NULL;
	if (root && old_root && !from)
		fatal("%s: the manifest's relocate_root '%s' is not an absolute directory", bundle, printable(old_root));
	if (from && strcmp(from, root) != 0)
		g.from = from, g.to = root; /* root: --relocate-root, already an absolute_dir() */
	char *dir = make_temp_dir("bundle"), *label = xasprintf("%s (its profile archive)", bundle);
	int fd = open(archive, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		fatal("cannot read %s: %s", label, strerror(errno));
	struct file_list files = {0};
	tar_extract_fd(fd, label, dir, TAR_PRIVATE, accept_gcda, &g, limit, &files);
	close(fd);
	if (g.holding > 0 && g.moved == 0)
		fatal("%s: %d profile file names hold relocate_root %s, but none is under it: nothing could be moved",
		      bundle, g.holding, printable(g.from));
	if (g.moved)
		fprintf(stderr, "import: %d profile files moved from %s/ to %s/\n", g.moved, printable(g.from), printable(g.to));
	file_list_sort(&files);
	struct tar_out *out = tar_create(dest, 0);
	for (int i = 0; i < files.n; i++) {
		char *path = xasprintf("%s/%s", dir, files.paths[i]);
		tar_add_file(out, files.paths[i], path);
		free(path);
	}
	tar_close(out);
}

/* Lists the facts that differ from what this build expects; returns how many. */
static int compare_facts(const struct facts *want, const struct facts *have, const char *bundle)
{
	int differ = 0;
	const char *key;
	json_t *value;
	json_object_foreach(want->obj, key, value) {
		const char *got = facts_get(have, key), *w = json_string_value(value);
		if (got && strcmp(got, w) == 0)
			continue;
		if (!differ++)
			fprintf(stderr, "import: the profile in %s was made for something else:\n", printable(bundle));
		const char *k = printable(key), *g = printable(got ? got : "(not recorded)");
		fprintf(stderr, "  %-18s profile: %s\n  %-18s this build: %s\n", k, g, "", printable(w));
	}
	return differ;
}

/* Opens the bundle (a regular file: a device would never end); with a pinned SHA-256, refuses
 * any other file before reading it.  *size: its bytes, which bound what it may unpack to. */
static int open_bundle(const char *bundle, const char *pin, unsigned long long *size)
{
	struct stat st;
	int fd = tar_open(bundle, &st);
	*size = (unsigned long long)st.st_size;
	if (!pin)
		return fd;
	char sum[SHA256_HEX_LEN + 1];
	if (sha256_fd(fd, sum) < 0)
		fatal("cannot read the profile bundle %s: %s", bundle, strerror(errno));
	if (strcasecmp(sum, pin) != 0)
		fatal("refusing %s: its SHA-256 is %s, but the profile is pinned to %s (--with-profile-sha256, "
		      "PGO_PROFILE_SHA256)", bundle, sum, pin);
	fprintf(stderr, "import: %s has the pinned SHA-256 %.12s...\n", printable(bundle), sum);
	return fd;
}

/* Unpacks the bundle into a private directory, its manifest into have; returns the profile's path. */
static char *unpack_bundle(const char *bundle, int fd, struct facts *have, unsigned long long limit)
{
	char *dir = make_temp_dir("bundle"), *profile = NULL;
	tar_extract_fd(fd, bundle, dir, TAR_PRIVATE, accept_bundle_member, &profile, limit, NULL);
	char *manifest = xasprintf("%s/manifest.json", dir), err[300];
	if (access(manifest, F_OK) < 0)
		fatal("%s is not a profopt profile bundle (no manifest.json)", bundle);
	if (facts_load_json(have, manifest, err, sizeof err) < 0)
		fatal("%s: manifest.json is not a manifest: %s", bundle, err);
	const char *file = facts_get(have, "profile_file"), *sum = facts_get(have, "profile_sha256");
	if (!file || !sum)
		fatal("%s: manifest lacks profile_file or profile_sha256", bundle);
	if (!profile || strcmp(profile, file) != 0)
		fatal("%s: the manifest names the profile '%s', which the bundle does not hold", bundle, printable(file));
	char *path = xasprintf("%s/profile/%s", dir, file), *actual = file_sha256(path);
	if (strcmp(actual, sum) != 0)
		fatal("%s: the profile is damaged: sha256 %s, expected %s", bundle, actual, printable(sum));
	return path;
}

static void parse_import_opts(struct import_opts *o, int argc, char **argv)
{
	int first = options_parse(&options_import, argc, argv, o);
	for (int i = 0; i < o->expect.n; i++)
		facts_load_kv_file(&o->want, o->expect.v[i]);
	for (int i = first; i < argc; i++)
		facts_add_kv(&o->want, argv[i], NULL);
	const char *root = o->relocate_root;
	if (!o->bundle || !o->dest)
		usage_error("--bundle=BUNDLE and --dest=FILE are required");
	if (o->pin && !sha256_is_hex(o->pin))
		usage_error("--sha256 wants 64 hexadecimal digits, not '%s'", o->pin);
	o->root = root ? absolute_dir(root) : NULL;
	if (root && !o->root)
		usage_error("--relocate-root wants an absolute directory other than /, not '%s'", root);
}

int cmd_import(int argc, char **argv)
{
	struct import_opts o = {0};
	struct facts have = {0};
	unsigned long long size;
	size_t len;
	char *data;
	parse_import_opts(&o, argc, argv);
	double start = now();
	int fd = open_bundle(o.bundle, o.pin, &size);
	/* the bundle and the archive in it, together, unpack to at most this */
	unsigned long long limit = tar_unpack_limit(size, o.max_inflate, o.max_unpacked);
	char *profile = unpack_bundle(o.bundle, fd, &have, limit);
	close(fd);

	int differ = compare_facts(&o.want, &have, o.bundle);
	if (differ && !o.force)
		fatal("refusing a profile that does not match (%d difference%s); a mismatched profile optimizes "
		      "the wrong code. To use it anyway: --force (make: PGO_PROFILE_FORCE=1)",
		      differ, differ == 1 ? "" : "s");
	if (differ)
		warn("using the mismatched profile anyway (--force)");

	if (ends_with(profile, ".tar"))
		import_gcda_archive(o.bundle, profile, o.dest, facts_get(&have, "relocate_root"), o.root, limit);
	else if ((data = read_file(profile, &len)))
		output_write(o.dest, data, len);
	else
		fatal("cannot read %s: %s", printable(profile), strerror(errno));
	if (o.manifest_out)
		facts_write_json(&have, o.manifest_out);
	const char *created = facts_get(&have, "created");
	fprintf(stderr, "import: profile from %s (made %s) checked and installed as %s\n", printable(o.bundle),
		printable(created ? created : "?"), printable(o.dest));
	if (o.stamp) {
		json_t *j = stamp_begin("import", now() - start);
		json_object_set_new(j, "imported_from", jw_text(o.bundle));
		json_object_set_new(j, "forced", json_boolean(differ));
		stamp_end(j, o.stamp);
	}
	return 0;
}
