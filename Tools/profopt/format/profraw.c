/* profraw.c - a bounds-checked reader of LLVM raw profiles, and the llvm-profdata check.
 * Layout (profopt's summary, checked against clang 14 and 19; it changes between releases,
 * hence the version): 64-bit words in the writer's byte order.
 *   word 0  magic "\xfflprofr\x81" ('R': 32-bit program); byte-swapped: foreign-endian
 *   word 1  version: low bits the format version (8: clang 14-16, 10: clang 19); flags 1<<56
 *           IR (else front-end), 1<<57 context-sensitive, 1<<58 entry first, 1<<59 debug-info
 *   v8      words 2-10: binary_ids_size (bytes), data_size (records), padding_before_counters,
 *           counters_size (counters), padding_after_counters, names_size, counters_delta,
 *           names_delta, value_kind_last
 *   v10     words 2-15: as v8 plus bitmap_bytes, padding_after_bitmap after the counters'
 *           padding, bitmap_delta after counters_delta, vtables and vnames_size after names_delta
 *   then    binary ids ((word length, bytes padded to 8) each); data records of 48 bytes (v10:
 *           64): name hash, function hash, counter pointer (record i's counters start at pointer
 *           + record_size*i - counters_delta), [v10: bitmap pointer], function and values
 *           pointers, 32-bit counter count, 16-bit value-site counts (2; v10: 3), [v10: 32-bit
 *           bitmap bytes], padding to 8; padding; counters (64-bit); padding; [v10: bitmap,
 *           padding]; names (zlib, left to llvm-profdata) padded to 8; [v10: vtables];
 *           value-profile data to the end.
 * Other versions and 32-bit programs are recognized by magic and version only: llvm-profdata
 * is the judge. */
#include "format/profraw.h"
#include "lib/proc.h"
#include "lib/output.h"
#include "lib/util.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define VARIANT_MASK 0xff00000000000000ull

struct reader {
	const unsigned char *p;
	size_t len;
	int swap;
	struct read_error e;
};

/* the first problem, with its offset and the file's name (util.c) */
#define failf(r, ...) read_fail(&(r)->e, __VA_ARGS__)

/* The number of `bytes` bytes at `at` (caller checked), in the file's byte order. */
#define get(r, at, bytes) load_uint((r)->p + (at), (bytes), (r)->swap)

/* Advances *pos over a section of `size` bytes named `what`; fails if the file is shorter. */
static int section(struct reader *r, size_t *pos, uint64_t size, const char *what)
{
	if (size > r->len - *pos)
		return failf(r, *pos, "%s of %llu bytes, but only %zu bytes left: truncated file (actual/expected)", what,
			     (unsigned long long)size, r->len - *pos);
	*pos += (size_t)size;
	return 0;
}

static int check_binary_ids(struct reader *r, size_t start, uint64_t size)
{
	size_t pos = start, end = start + (size_t)size;
	while (pos < end) {
		if (end - pos < 8)
			return failf(r, pos, "binary id length: %zu bytes left, expected 8", end - pos);
		uint64_t n = get(r, pos, 8), padded = (n + 7) & ~7ull;
		pos += 8;
		if (n > end - pos || padded > end - pos)
			return failf(r, pos - 8, "binary id of %llu bytes exceeds the %zu bytes left in its section",
				     (unsigned long long)n, end - pos);
		pos += (size_t)padded;
	}
	return 0;
}

/* Header word i (caller checked the header's length). */
static uint64_t word(const struct reader *r, int i)
{
	return get(r, 8 * (size_t)i, 8);
}

/* Counts the executed functions and zero counters: nonzero[k] is the number of counters before
 * k that are not zero, since records may share counters. */
static int count_records(struct reader *r, struct profraw_info *in, size_t data, size_t counters, int v10)
{
	size_t record = v10 ? 64 : 48, ncounters = (size_t)in->counters_size;
	uint64_t counters_delta = word(r, v10 ? 10 : 8);
	uint64_t *nonzero = xcalloc(ncounters + 1, sizeof *nonzero);
	for (size_t k = 0; k < ncounters; k++)
		nonzero[k + 1] = nonzero[k] + (get(r, counters + 8 * k, 8) != 0);
	for (uint64_t i = 0; i < in->data_size; i++) {
		size_t rec = data + (size_t)i * record;
		uint64_t ptr = get(r, rec + 16, 8), n = get(r, rec + (v10 ? 48 : 40), 4);
		/* relative pointer: bytes from the counters' start, computed modulo 2^64 */
		uint64_t off = ptr + i * (uint64_t)record - counters_delta;
		if (off % 8 || off / 8 > in->counters_size || n > in->counters_size - off / 8) {
			free(nonzero);
			return failf(r, rec + 16, "function record %llu: its %llu counters lie outside the %llu counters of the file",
				     (unsigned long long)i, (unsigned long long)n, (unsigned long long)in->counters_size);
		}
		uint64_t hits = nonzero[off / 8 + n] - nonzero[off / 8];
		in->zero_counters += n - hits;
		in->functions++;
		in->executed += hits > 0;
	}
	free(nonzero);
	in->layout_known = 1;
	return 0;
}

/* Versions 8 and 10 of a 64-bit program: the sections' sizes checked against the file. */
static int parse_layout(struct reader *r, struct profraw_info *in)
{
	int v10 = in->version == 10;
	size_t pos = v10 ? 128 : 88;
	if (r->len < pos)
		return failf(r, r->len, "truncated header: %zu bytes, expected %zu (actual/expected)", r->len, pos);
	uint64_t ids_size = word(r, 2), pad_bitmap = v10 ? word(r, 8) : 0;
	in->data_size = word(r, 3);
	in->counters_size = word(r, 5);
	in->bitmap_bytes = v10 ? word(r, 7) : 0;
	in->names_size = word(r, v10 ? 9 : 7);
	if (ids_size % 8)
		return failf(r, 16, "binary ids size %llu is not a multiple of 8", (unsigned long long)ids_size);
	size_t ids = pos;
	if (section(r, &pos, ids_size, "binary ids section") < 0 || check_binary_ids(r, ids, ids_size) < 0)
		return -1;
	uint64_t data_bytes, counter_bytes; /* a count that overflows them is corrupt */
	if (__builtin_mul_overflow(in->data_size, (uint64_t)(v10 ? 64 : 48), &data_bytes))
		return failf(r, 24, "data record count %llu is impossibly large", (unsigned long long)in->data_size);
	if (__builtin_mul_overflow(in->counters_size, (uint64_t)8, &counter_bytes))
		return failf(r, 40, "counter count %llu is impossibly large", (unsigned long long)in->counters_size);
	size_t data = pos;
	if (section(r, &pos, data_bytes, "data section") < 0 ||
	    section(r, &pos, word(r, 4), "padding before the counters") < 0)
		return -1;
	size_t counters = pos;
	if (section(r, &pos, counter_bytes, "counters section") < 0 ||
	    section(r, &pos, word(r, 6), "padding after the counters") < 0 ||
	    section(r, &pos, in->bitmap_bytes, "bitmap section") < 0 ||
	    section(r, &pos, pad_bitmap, "padding after the bitmap") < 0 ||
	    section(r, &pos, in->names_size, "names section") < 0 ||
	    section(r, &pos, (8 - in->names_size % 8) % 8, "padding after the names") < 0)
		return -1;
	/* vtable records and names (C++ type profiling) and value-profile data: the rest */
	in->value_data_size = r->len - pos;
	return count_records(r, in, data, counters, v10);
}

int profraw_parse(const unsigned char *data, size_t len, const char *name, struct profraw_info *info, char *err,
		  size_t errlen)
{
	struct reader r = {.p = data, .len = len, .e = {name, err, errlen}};
	memset(info, 0, sizeof *info);
	if (len < 16)
		return failf(&r, 0, "truncated header: file has %zu bytes, expected at least 16 (actual/expected)", len);
	uint64_t magic = get(&r, 0, 8);
	r.swap = magic != PROFRAW_MAGIC64 && magic != PROFRAW_MAGIC32;
	magic = get(&r, 0, 8);
	if (magic != PROFRAW_MAGIC64 && magic != PROFRAW_MAGIC32)
		return failf(&r, 0, "bad magic: not an LLVM raw profile (expected 0x%016llx)", PROFRAW_MAGIC64);
	info->swapped = r.swap;
	info->ptr64 = magic == PROFRAW_MAGIC64;
	info->variant = word(&r, 1) & VARIANT_MASK;
	uint64_t v = word(&r, 1) & ~VARIANT_MASK;
	if (v == 0 || v > 1000)
		return failf(&r, 8, "bad version %llu", (unsigned long long)v);
	info->version = (unsigned)v;
	return info->ptr64 && (v == 8 || v == 10) ? parse_layout(&r, info) : 0;
}

int profraw_read(const char *path, struct profraw_info *info, char *err, size_t errlen)
{
	size_t len;
	unsigned char *data = read_profile(path, &len, err, errlen);
	memset(info, 0, sizeof *info);
	int rc = data ? profraw_parse(data, len, path, info, err, errlen) : -1;
	free(data);
	return rc;
}

const char *profraw_variant_string(const struct profraw_info *info, char *out, size_t n)
{
	uint64_t v = info->variant;
	snprintf(out, n, "%s%s%s%s", v & (1ull << 56) ? "IR" : "FE", v & (1ull << 57) ? "+CS" : "",
		 v & (1ull << 58) ? ",entry-first" : "", v & (1ull << 59) ? ",debug-info-correlate" : "");
	return out;
}

/* The first line of s that mentions an error, else its first line. */
static void first_error_line(const char *s, char *out, size_t n)
{
	const char *line = strstr(s, "rror");
	while (line && line > s && line[-1] != '\n')
		line--;
	line = line ? line : s;
	char *copy = xasprintf("%.*s", (int)strcspn(line, "\n"), line);
	snprintf(out, n, "%s", printable(copy));
	free(copy);
}

int profraw_tool_reads(const char *tool, const char *path, char *err, size_t errlen)
{
	char *arg = safe_path_arg(path);
	char *argv[] = {(char *)tool, "show", "--", arg, NULL}, *out = NULL;
	int st = capture(argv, &out), ok = proc_exit_ok(st);
	free(arg);
	if (st < 0)
		snprintf(err, errlen, "cannot run %s", printable(tool));
	else if (!ok)
		first_error_line(out ? out : "", err, errlen);
	free(out);
	return ok ? 0 : -1;
}

/* Builds the program with CC (split without a shell) and runs it (through runner, shell text, in
 * its directory, when given): the failed step's output, or NULL. */
static char *build_and_run(const char *cc, const char *src, const char *exe, const char *raw, const char *runner)
{
	char **words = split_command(cc), *out = NULL;
	char *more[] = {"-fprofile-generate", "-o", (char *)exe, (char *)src};
	size_t n = 0;
	while (words[n])
		n++;
	char **argv = memcpy(xcalloc(n + 5, sizeof *argv), words, n * sizeof *argv);
	memcpy(argv + n, more, sizeof more);
	int st = n ? capture(argv, &out) : RUN_NOT_STARTED;
	if (proc_exit_ok(st)) {
		free(out);
		char *env_var = xasprintf("LLVM_PROFILE_FILE=%s", raw);
		char *line = xasprintf("cd \"$(dirname \"$1\")\" && exec %s ./probe", runner ? runner : "");
		char *env[] = {env_var, NULL}, *run[] = {(char *)exe, NULL}, *via[] = {"/bin/sh", "-c", line, "sh", (char *)exe, NULL};
		struct run_opts o = {.env = env};
		st = run_child(runner ? via : run, &o, &out, NULL);
		free(env_var);
		free(line);
	} else if (!out || !*out) {
		free(out);
		out = xstrdup(n ? "cannot run the compiler" : "empty compiler command");
	}
	if (proc_exit_ok(st)) {
		free(out);
		out = NULL;
	}
	free(argv);
	free_words(words);
	return out;
}

int profraw_probe(const char *cc, const char *tool, const char *runner, struct profraw_info *info, char *err, size_t errlen)
{
	char *dir = make_temp_dir("probe");
	int rc = -1;
	memset(info, 0, sizeof *info);
	char *src = xasprintf("%s/probe.c", dir), *raw = xasprintf("%s/probe.profraw", dir);
	char *exe = xasprintf("%s/probe", dir), *out = NULL;
	static const char text[] = "int main(void) { return 0; }\n";
	if (write_file_atomic(src, text, sizeof text - 1) < 0) {
		snprintf(err, errlen, "cannot write %s: %s", printable(src), strerror(errno));
	} else if ((out = build_and_run(cc, src, exe, raw, runner)) != NULL) {
		char line[200];
		first_error_line(out, line, sizeof line);
		snprintf(err, errlen, "%s -fprofile-generate could not build and run a test program: %s", printable(cc), line);
	} else if (access(raw, F_OK) != 0) {
		snprintf(err, errlen, "the test program built by %s -fprofile-generate wrote no raw profile", printable(cc));
	} else if (profraw_read(raw, info, err, errlen) == 0) {
		char why[300];
		if (profraw_tool_reads(tool, raw, why, sizeof why) == 0)
			rc = 0;
		else
			snprintf(err, errlen, "%s cannot read raw profile version %u written by %s: %s", printable(tool),
				 info->version, printable(cc), why);
	}
	free(out);
	remove_dir_tree(dir); /* with whatever else the compiler left there */
	free(src);
	free(raw);
	free(exe);
	free(dir);
	return rc;
}
