/* twins.c - libtool's two copies of a library object (PIC under .libs/, and beside it for the
 * static library): training runs one, and the merge gives the other its counts, function by
 * function.  GCC refuses counts whose flow graph differs from the function it compiles
 * (-Werror=coverage-mismatch), and the copies differ wherever the source says #ifdef PIC: a
 * function is copied only where the other copy's notes (.gcno, which the instrumented build
 * writes: AX_PGO's -ftest-coverage) show the same ident and checksums.  Without notes the whole
 * file is copied, as before. */
#include "pipeline/twins.h"
#include "format/gcov_io.h"
#include "lib/output.h"
#include "lib/util.h"
#include "lib/walk.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

static uint32_t word_at(const unsigned char *p, int swap)
{
	uint32_t w = (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24;
	return swap ? __builtin_bswap32(w) : w;
}

static void put_word(unsigned char *p, uint32_t w, int swap)
{
	w = swap ? __builtin_bswap32(w) : w;
	for (int i = 0; i < 4; i++)
		p[i] = (unsigned char)(w >> (8 * i));
}

/* The function's name in notes, for messages. */
static const char *name_in(const struct gcov_file *notes, uint32_t ident)
{
	const struct gcov_function *f = notes ? gcov_find_function(notes, ident) : NULL;
	return f && f->name ? f->name : "?";
}

/* The records of d (a well-formed .gcda) whose function the notes `to` have with the same
 * checksums; the others' names (from the trained copy's notes `from`) are added to dropped.
 * NULL if d is not a .gcda this reader knows. */
static unsigned char *matching_records(const unsigned char *d, size_t len, const struct gcov_file *to,
				       const struct gcov_file *from, size_t *outlen, struct buf *dropped, int *ndropped)
{
	if (len < 16)
		return NULL;
	int swap = word_at(d, 0) != GCOV_DATA_MAGIC;
	if (word_at(d, swap) != GCOV_DATA_MAGIC)
		return NULL;
	unsigned char *out = xmalloc(len);
	/* the stamp and checksum of the twin's compilation, whose notes the counts now fit */
	memcpy(out, d, 16);
	put_word(out + 8, to->stamp, swap);
	put_word(out + 12, to->checksum, swap);
	size_t pos = 16, n = 16;
	int keep = 1;
	while (pos + 8 <= len) {
		uint32_t tag = word_at(d + pos, swap), length = word_at(d + pos + 4, swap);
		size_t payload = gcov_counter_tag(tag) && (int32_t)length < 0 ? 0 : length;
		if (tag == 0 || payload > len - pos - 8)
			break;
		if (tag == GCOV_TAG_FUNCTION && payload >= 12) {
			uint32_t ident = word_at(d + pos + 8, swap);
			const struct gcov_function *f = gcov_find_function(to, ident);
			keep = f && f->lineno_checksum == word_at(d + pos + 12, swap) &&
			       f->cfg_checksum == word_at(d + pos + 16, swap);
			if (!keep)
				buf_printf(dropped, "%s%s", (*ndropped)++ ? ", " : "", name_in(from, ident));
		} else if (!gcov_counter_tag(tag)) {
			keep = 1;
		}
		if (keep)
			memcpy(out + n, d + pos, payload + 8), n += payload + 8;
		pos += payload + 8;
	}
	memcpy(out + n, d + pos, len - pos);
	*outlen = n + len - pos;
	return out;
}

/* The other copy of dir/base: .libs/base beside dir/base, or the reverse. */
static char *twin_of(const char *path)
{
	const char *slash = strrchr(path, '/');
	const char *base = slash ? slash + 1 : path;
	int dl = slash ? (int)(slash - path) : 0;
	int in_libs = dl >= 5 && strncmp(path + dl - 5, ".libs", 5) == 0 && (dl == 5 || path[dl - 6] == '/');
	if (!in_libs)
		return slash ? xasprintf("%.*s/.libs/%s", dl, path, base) : xasprintf(".libs/%s", base);
	return dl == 5 ? xstrdup(base) : xasprintf("%.*s/%s", dl - 6, path, base);
}

static int exists(const char *path)
{
	struct stat st;
	return stat(path, &st) == 0;
}

/* Writes twin.gcda from gcda: the functions the twin's notes have alike, or all without notes. */
static void copy_counts(const char *gcda, const char *twin, struct buf *dropped)
{
	size_t len, outlen = 0;
	char err[600], *path = xasprintf("%s.gcda", twin), *notes_path = xasprintf("%s.gcno", twin);
	char *from_path = xasprintf("%.*s.gcno", (int)strlen(gcda) - 5, gcda);
	unsigned char *data = read_profile(gcda, &len, err, sizeof err), *out = NULL;
	if (!data)
		fatal("%s", err);
	struct gcov_file to = {0}, from = {0};
	if (gcov_read(notes_path, &to, err, sizeof err) == 0) {
		int have_from = gcov_read(from_path, &from, err, sizeof err) == 0, n = 0;
		struct buf names = {0};
		out = matching_records(data, len, &to, have_from ? &from : NULL, &outlen, &names, &n);
		if (n)
			buf_printf(dropped, "\n  %s.o: %s", printable(twin), names.data);
		buf_free(&names);
		gcov_file_free(&to);
		if (have_from)
			gcov_file_free(&from);
	}
	output_write(path, out ? out : data, out ? outlen : len);
	free(out);
	free(data);
	free(from_path);
	free(notes_path);
	free(path);
}

void libtool_twins(const char *dir, const char *const *skip)
{
	struct file_list l = {0};
	find_files_all(&l, dir, ".gcda", skip);
	file_list_sort(&l);
	struct buf dropped = {0};
	int copies = 0;
	for (int i = 0; i < l.n; i++) {
		char *stem = xasprintf("%.*s", (int)strlen(l.paths[i]) - 5, l.paths[i]), *twin = twin_of(stem);
		char *obj = xasprintf("%s.o", twin), *gcda = xasprintf("%s.gcda", twin);
		if (exists(obj) && !exists(gcda)) {
			copy_counts(l.paths[i], twin, &dropped);
			copies++;
		}
		free(gcda);
		free(obj);
		free(twin);
		free(stem);
	}
	if (copies)
		fprintf(stderr, "merge: %d libtool object copies got the counts of their twin (PIC or not)\n", copies);
	if (dropped.len)
		fprintf(stderr,
			"merge: functions compiled differently in the two copies (#ifdef PIC), left without counts "
			"in the untrained copy:%s\n",
			dropped.data);
	buf_free(&dropped);
	file_list_free(&l);
}
