/* bench_pages.c - a new page-cache draw for every round.
 *
 * Which physical pages the page cache gives an interpreter's executable (and the libraries
 * and extension modules it maps) decides which cache sets its code competes for.  The draw
 * holds as long as the pages stay cached, so one draw can make a build look faster or slower
 * on a workload in every round of a run, and in the next run too.  Dropping the files' pages
 * and reading them back at the start of each round makes the draw part of the noise the
 * rounds sample (read back at once: dropped pages left to fault in would time the disk). */
#include "bench/bench.h"
#include "lib/util.h"

#include <errno.h>
#include <fcntl.h>
#include <string.h>
#include <unistd.h>

/* A line of /proc/PID/maps: "ADDR-ADDR PERMS OFFSET DEV INODE   PATH"; PATH is absent for
 * anonymous memory, "[heap]"-like for the kernel's, and ends in " (deleted)" for a file
 * removed since it was mapped. */
static const char *maps_path(const char *line, size_t len, size_t *plen)
{
	int field = 0;
	size_t i = 0;
	while (field < 5 && i < len) {
		while (i < len && line[i] != ' ')
			i++;
		while (i < len && line[i] == ' ')
			i++;
		field++;
	}
	if (field < 5 || i >= len || line[i] != '/')
		return NULL;
	*plen = len - i;
	static const char deleted[] = " (deleted)";
	if (*plen >= sizeof deleted - 1 && !memcmp(line + len - (sizeof deleted - 1), deleted, sizeof deleted - 1))
		return NULL;
	return line + i;
}

int bench_pages_parse_maps(const char *maps, char ***files, int n, int *cap)
{
	for (const char *p = maps; p && *p;) {
		const char *nl = strchr(p, '\n');
		size_t len = nl ? (size_t)(nl - p) : strlen(p), plen = 0;
		const char *path = maps_path(p, len, &plen);
		int seen = 0;
		for (int k = 0; path && k < n && !seen; k++)
			seen = strlen((*files)[k]) == plen && !memcmp((*files)[k], path, plen);
		if (path && !seen) {
			*files = grow_array(*files, n, cap, sizeof **files, 8);
			(*files)[n++] = xasprintf("%.*s", (int)plen, path);
		}
		p = nl ? nl + 1 : NULL;
	}
	return n;
}

int bench_pages_renew(char *const *files, int n)
{
	static char buf[1 << 20];
	int renewed = 0;
	for (int k = 0; k < n; k++) {
		int fd = open(files[k], O_RDONLY | O_CLOEXEC);
		if (fd < 0)
			continue;
		/* pages still waiting to be written are not dropped: write them first */
		fdatasync(fd);
		int ok = posix_fadvise(fd, 0, 0, POSIX_FADV_DONTNEED) == 0;
		/* read back now, so no timed run waits for the disk on a page it touches first */
		ssize_t got;
		while ((got = read(fd, buf, sizeof buf)) > 0 || (got < 0 && errno == EINTR))
			;
		renewed += ok && got == 0;
		close(fd);
	}
	return renewed;
}
