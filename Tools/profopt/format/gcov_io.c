/* gcov_io.c - a bounds-checked reader of GCC 12 .gcda and .gcno files.  Layout (profopt's summary,
 * from gcc 12.2 and gcov-dump): 32-bit words in the writer's byte order (the magic tells which);
 * counters are two words, low first; lengths count bytes; a string is its length with the NUL,
 * then its bytes unpadded (so later words may be unaligned), length 0 being "".
 *   header  magic "gcda"/"gcno", version "B22*" (major (c0-'A')*10+c1-'0', minor c2-'0'),
 *           stamp (a .gcda and its .gcno agree), checksum; notes add string cwd, word flag
 *   records word tag, word length, payload; until EOF or a zero tag (a .gcda always ends so):
 *   0x01000000 FUNCTION  ident, lineno_checksum, cfg_checksum (empty in a .gcda: no data); notes
 *                        add string name, word artificial, string source, start line/column,
 *                        end line/column
 *   0x01410000 BLOCKS    notes: the function's number of basic blocks
 *   0x01430000 ARCS      notes: source block, then (dest block, flags) per arc; flag 1 = on the
 *                        spanning tree, no counter
 *   0x01a10000 + (k << 17), k < 8: COUNTERS of kind k, 8 bytes each; k = 0: one per counted arc,
 *                        in ARCS order; a negative length -8n is n zero counters, no payload
 *   0xa1000000 OBJECT_SUMMARY  data: word runs, word sum_max
 *   others (LINES 0x01450000, ...) are skipped by their length. */
#include "format/gcov_io.h"
#include "lib/util.h"

#include <stdlib.h>
#include <string.h>

#define TAG_BLOCKS 0x01410000u
#define TAG_ARCS 0x01430000u
#define TAG_OBJECT_SUMMARY 0xa1000000u
#define ARC_ON_TREE 1u
/* A sanity bound on one function's graph: far above anything GCC emits for real code. */
#define MAX_ARCS (1u << 24)

struct cursor {
	const unsigned char *p;
	size_t len, pos;
	int swap; /* the file's byte order is not little-endian */
	struct read_error e;
};

/* the first problem, with its offset and the file's name (util.c) */
#define failf(c, ...) read_fail(&(c)->e, __VA_ARGS__)

static uint32_t word_at(const struct cursor *c, size_t at)
{
	return (uint32_t)load_uint(c->p + at, 4, c->swap);
}

/* Reads a word at the cursor, not past `end`. */
static int get_word(struct cursor *c, size_t end, const char *what, uint32_t *v)
{
	if (end - c->pos < 4)
		return failf(c, c->pos, "truncated %s: %zu bytes left, expected 4", what, end - c->pos);
	*v = word_at(c, c->pos);
	c->pos += 4;
	return 0;
}

/* A GCC 12 string: byte length (with the NUL), bytes; *s is malloc'd ("" for length 0). */
static int get_string(struct cursor *c, size_t end, const char *what, char **s)
{
	uint32_t n = 0;
	size_t at = c->pos;
	if (get_word(c, end, what, &n) < 0)
		return -1;
	if (n > end - c->pos)
		return failf(c, at, "%s length %u exceeds the %zu bytes left in its record (actual/expected)", what, n,
			     end - c->pos);
	if (n > 0 && c->p[c->pos + n - 1] != '\0')
		return failf(c, at, "%s of %u bytes does not end in NUL", what, n);
	*s = xstrdup(n ? (const char *)c->p + c->pos : "");
	c->pos += n;
	return 0;
}

int gcov_counter_tag(uint32_t tag)
{
	return tag >= GCOV_TAG_COUNTER_BASE && tag < GCOV_TAG_COUNTER_BASE + (GCOV_COUNTER_KINDS << 17) &&
	       ((tag - GCOV_TAG_COUNTER_BASE) & 0x1ffffu) == 0;
}

static int read_function(struct cursor *c, struct gcov_file *f, size_t end, struct gcov_function **cur)
{
	*cur = NULL;
	if (f->kind == GCOV_DATA && c->pos == end)
		return 0; /* a function without data */
	f->fn = grow_array(f->fn, f->nfn, &f->capfn, sizeof *f->fn, 16);
	struct gcov_function *fn = memset(&f->fn[f->nfn++], 0, sizeof *f->fn);
	if (get_word(c, end, "function ident", &fn->ident) < 0 ||
	    get_word(c, end, "lineno checksum", &fn->lineno_checksum) < 0 ||
	    get_word(c, end, "cfg checksum", &fn->cfg_checksum) < 0)
		return -1;
	if (f->kind == GCOV_NOTES) {
		uint32_t unused;
		if (get_string(c, end, "function name", &fn->name) < 0 ||
		    get_word(c, end, "artificial flag", &unused) < 0 ||
		    get_string(c, end, "source file name", &fn->source) < 0 ||
		    get_word(c, end, "start line", &fn->start_line) < 0 ||
		    get_word(c, end, "start column", &unused) < 0 ||
		    get_word(c, end, "end line", &fn->end_line) < 0 ||
		    get_word(c, end, "end column", &unused) < 0)
			return -1;
	}
	*cur = fn;
	return 0;
}

static int read_arcs(struct cursor *c, struct gcov_function *fn, size_t start, size_t end)
{
	uint32_t src = 0;
	if (!fn)
		return failf(c, start, "ARCS record before any FUNCTION record");
	if (get_word(c, end, "arc source block", &src) < 0)
		return -1;
	if ((end - c->pos) % 8 != 0)
		return failf(c, start, "ARCS record of %zu bytes: expected 4 + 8 per arc", end - start);
	if (fn->nblocks && src >= fn->nblocks)
		return failf(c, start, "arc source block %u, but the function has %u blocks", src, fn->nblocks);
	for (; c->pos < end; c->pos += 8) { /* whole arcs: checked above */
		uint32_t dest = word_at(c, c->pos), flags = word_at(c, c->pos + 4);
		if (fn->nblocks && dest >= fn->nblocks)
			return failf(c, c->pos, "arc destination block %u, but the function has %u blocks", dest,
				     fn->nblocks);
		if (fn->narcs >= MAX_ARCS)
			return failf(c, c->pos, "more than %u arcs in one function", MAX_ARCS);
		fn->narcs++;
		fn->ncounted += !(flags & ARC_ON_TREE);
	}
	return 0;
}

static int read_counters(struct cursor *c, struct gcov_function *fn, uint32_t tag, int32_t length, size_t start,
			 size_t *end)
{
	unsigned kind = (tag - GCOV_TAG_COUNTER_BASE) >> 17;
	int zero = length < 0;
	uint64_t bytes = zero ? (uint64_t)(-(int64_t)length) : (uint64_t)length;
	if (bytes % 8 != 0)
		return failf(c, start, "counter record of %llu bytes: not a multiple of 8", (unsigned long long)bytes);
	if (!zero && bytes > c->len - c->pos)
		return failf(c, start, "counter record of %llu bytes, only %zu left: truncated file (actual/expected)",
			     (unsigned long long)bytes, c->len - c->pos);
	*end = zero ? c->pos : c->pos + (size_t)bytes;
	if (!fn)
		return failf(c, start, "counter record before any FUNCTION record");
	if (kind != 0)
		return 0; /* value-profile counters: not needed */
	if (fn->has_arcs)
		return failf(c, start, "second arc counter record for function %u", fn->ident);
	if (bytes / 8 > MAX_ARCS)
		return failf(c, start, "%llu arc counters in one function", (unsigned long long)(bytes / 8));
	fn->has_arcs = 1;
	fn->narc_counters = (uint32_t)(bytes / 8);
	if (zero)
		return 0; /* arcs stays NULL: all zero, and nothing allocated for a claimed count */
	fn->arcs = xcalloc(fn->narc_counters ? fn->narc_counters : 1, sizeof *fn->arcs);
	for (uint32_t i = 0; i < fn->narc_counters; i++, c->pos += 8) /* within the file: checked above */
		fn->arcs[i] = (uint64_t)word_at(c, c->pos + 4) << 32 | word_at(c, c->pos);
	return 0;
}

static int read_header(struct cursor *c, struct gcov_file *f)
{
	if (c->len < 16)
		return failf(c, 0, "truncated header: file has %zu bytes, expected at least 16", c->len);
	uint32_t magic = word_at(c, 0);
	c->swap = magic != GCOV_DATA_MAGIC && magic != GCOV_NOTE_MAGIC;
	magic = word_at(c, 0);
	if (magic != GCOV_DATA_MAGIC && magic != GCOV_NOTE_MAGIC)
		return failf(c, 0, "bad magic %02x %02x %02x %02x: not a .gcda or .gcno file (expected \"gcda\" or \"gcno\")",
			     c->p[0], c->p[1], c->p[2], c->p[3]);
	f->kind = magic == GCOV_DATA_MAGIC ? GCOV_DATA : GCOV_NOTES;
	f->version = word_at(c, 4);
	f->stamp = word_at(c, 8);
	f->checksum = word_at(c, 12);
	c->pos = 16;
	char v[5];
	int major = gcov_version_major(f->version);
	if (major < 0)
		return failf(c, 4, "bad version word \"%s\"", gcov_version_string(f->version, v));
	if (major != 12)
		return failf(c, 4, "version \"%s\" is GCC %d.%d, but profopt reads the format of GCC 12 (actual/expected: %d/12)",
			     gcov_version_string(f->version, v), major, gcov_version_minor(f->version), major);
	uint32_t unexecuted_blocks;
	if (f->kind == GCOV_NOTES && (get_string(c, c->len, "working directory", &f->cwd) < 0 ||
				      get_word(c, c->len, "unexecuted-blocks flag", &unexecuted_blocks) < 0))
		return -1;
	return 0;
}

static int parse(struct cursor *c, struct gcov_file *f)
{
	struct gcov_function *cur = NULL;
	if (read_header(c, f) < 0)
		return -1;
	while (c->pos < c->len) {
		size_t start = c->pos, end = 0;
		uint32_t tag = 0, ulen = 0;
		if (get_word(c, c->len, "record tag", &tag) < 0)
			return -1;
		if (tag == 0)
			return 0; /* explicit end of file */
		if (get_word(c, c->len, "record length", &ulen) < 0)
			return -1;
		int counters = f->kind == GCOV_DATA && gcov_counter_tag(tag), rc = 0;
		if (!counters && ulen > c->len - c->pos)
			return failf(c, start, "record 0x%08x of %u bytes, only %zu left: truncated file (actual/expected)", tag,
				     ulen, c->len - c->pos);
		end = c->pos + ulen; /* counters: a negative length is a count, read_counters sets end */
		if (counters)
			rc = read_counters(c, cur, tag, (int32_t)ulen, start, &end);
		else if (tag == GCOV_TAG_FUNCTION)
			rc = read_function(c, f, end, &cur);
		else if (tag == TAG_OBJECT_SUMMARY && (f->kind != GCOV_DATA || ulen != 8))
			rc = failf(c, start, "object summary of %u bytes, expected 8 (actual/expected)", ulen);
		else if (tag == TAG_OBJECT_SUMMARY)
			f->runs = word_at(c, c->pos);
		else if (tag == TAG_BLOCKS && (!cur || f->kind != GCOV_NOTES))
			rc = failf(c, start, "BLOCKS record outside a function of a .gcno");
		else if (tag == TAG_BLOCKS)
			rc = get_word(c, end, "block count", &cur->nblocks);
		else if (tag == TAG_ARCS && f->kind != GCOV_NOTES)
			rc = failf(c, start, "ARCS record in a .gcda");
		else if (tag == TAG_ARCS)
			rc = read_arcs(c, cur, start, end);
		/* LINES and anything newer: skipped */
		if (rc < 0)
			return -1;
		if (c->pos > end)
			return failf(c, start, "record 0x%08x overruns its length %u", tag, ulen);
		c->pos = end;
	}
	/* libgcov and gcov-tool end every .gcda with a zero word: without it the file was cut,
	 * possibly between two records, which no length would show. */
	if (f->kind == GCOV_DATA)
		return failf(c, c->len, "no end-of-file word after %zu bytes: truncated file", c->len);
	return 0;
}

static int cmp_key(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
	return (x > y) - (x < y);
}

int gcov_parse(const unsigned char *data, size_t len, const char *name, struct gcov_file *f, char *err,
	       size_t errlen)
{
	struct cursor c = {.p = data, .len = len, .e = {name, err, errlen}};
	memset(f, 0, sizeof *f);
	if (parse(&c, f) == 0) {
		f->by_ident = xcalloc((size_t)f->nfn + 1, sizeof *f->by_ident);
		for (int i = 0; i < f->nfn; i++)
			f->by_ident[i] = (uint64_t)f->fn[i].ident << 32 | (uint32_t)i;
		qsort(f->by_ident, (size_t)f->nfn, sizeof *f->by_ident, cmp_key);
		return 0;
	}
	gcov_file_free(f);
	return -1;
}

int gcov_read(const char *path, struct gcov_file *f, char *err, size_t errlen)
{
	size_t len;
	unsigned char *data = read_profile(path, &len, err, errlen);
	memset(f, 0, sizeof *f);
	int rc = data ? gcov_parse(data, len, path, f, err, errlen) : -1;
	free(data);
	return rc;
}

void gcov_file_free(struct gcov_file *f)
{
	for (int i = 0; i < f->nfn; i++) {
		free(f->fn[i].name);
		free(f->fn[i].source);
		free(f->fn[i].arcs);
	}
	free(f->fn);
	free(f->by_ident);
	free(f->cwd);
	memset(f, 0, sizeof *f);
}

const char *gcov_version_string(uint32_t v, char *out)
{
	for (int i = 0; i < 4; i++) {
		unsigned char ch = (unsigned char)(v >> (24 - 8 * i));
		out[i] = ch >= 0x20 && ch < 0x7f ? (char)ch : '?';
	}
	out[4] = '\0';
	return out;
}

int gcov_version_major(uint32_t v)
{
	int c0 = (int)(v >> 24 & 0xff), c1 = (int)(v >> 16 & 0xff), c2 = (int)(v >> 8 & 0xff);
	if (c0 < 'A' || c0 > 'Z' || c1 < '0' || c1 > '9' || c2 < '0' || c2 > '9')
		return -1;
	return (c0 - 'A') * 10 + (c1 - '0');
}

int gcov_version_minor(uint32_t v)
{
	return gcov_version_major(v) < 0 ? -1 : (int)(v >> 8 & 0xff) - '0';
}

/* CRC-32 as GCC computes it for profile ids: polynomial 0x04c11db7, most significant bit
 * first, initial value 0, no final inversion; the top bit of the result cleared. */
uint32_t gcov_global_ident(const char *name)
{
	uint32_t crc = 0;
	const unsigned char *p = (const unsigned char *)name;
	do {
		crc ^= (uint32_t)*p << 24;
		for (int i = 0; i < 8; i++)
			crc = crc & 0x80000000u ? crc << 1 ^ 0x04c11db7u : crc << 1;
	} while (*p++);
	return crc & 0x7fffffffu;
}

const struct gcov_function *gcov_find_function(const struct gcov_file *notes, uint32_t ident)
{
	int n = notes->by_ident ? notes->nfn : 0, lo = 0, hi = n;
	while (lo < hi) {
		int mid = lo + (hi - lo) / 2;
		if (notes->by_ident[mid] >> 32 < ident)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo < n && notes->by_ident[lo] >> 32 == ident ? &notes->fn[(uint32_t)notes->by_ident[lo]] : NULL;
}

int gcov_check_pair(const struct gcov_file *notes, const struct gcov_file *data, char *err, size_t errlen)
{
	char a[5], b[5];
	if (notes->version != data->version)
		snprintf(err, errlen, "version \"%s\" in the data, \"%s\" in the notes", gcov_version_string(data->version, a),
			 gcov_version_string(notes->version, b));
	else if (notes->stamp != data->stamp)
		snprintf(err, errlen, "stamp %u in the data, %u in the notes: they come from different compilations",
			 data->stamp, notes->stamp);
	if (notes->version != data->version || notes->stamp != data->stamp)
		return data->nfn ? data->nfn : 1;
	int bad = 0;
	for (int i = 0; i < data->nfn; i++) {
		const struct gcov_function *d = &data->fn[i], *n = gcov_find_function(notes, d->ident);
		const char *why = NULL;
		if (!n)
			why = "is not in the notes";
		else if (n->lineno_checksum != d->lineno_checksum || n->cfg_checksum != d->cfg_checksum)
			why = "has other checksums in the notes (the source changed)";
		else if (d->has_arcs && d->narc_counters != n->ncounted)
			why = "has another number of arc counters than the notes expect";
		if (why && bad++ == 0)
			snprintf(err, errlen, "function %s (ident %u) %s", n && n->name ? printable(n->name) : "?", d->ident, why);
	}
	return bad;
}

int gcov_check_data(const char *path, char *why, size_t n)
{
	struct gcov_file f;
	int rc = gcov_read(path, &f, why, n);
	if (rc == 0 && f.kind != GCOV_DATA) {
		snprintf(why, n, "%s: a .gcno (compiler notes), not a .gcda", printable(path));
		rc = -1;
	}
	gcov_file_free(&f);
	return rc;
}

