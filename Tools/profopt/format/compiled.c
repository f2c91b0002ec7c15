/* compiled.c - which files a build read, from its log (see compiled.h). */
#include "format/compiled.h"
#include "format/fingerprint.h"
#include "lib/strmap.h"
#include "lib/util.h"
#include "lib/walk.h"

#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

/* System headers change with the system, not with an edit of the project. */
static int is_system(const char *path)
{
	return starts_with(path, "/usr/") || starts_with(path, "/lib/") || starts_with(path, "/opt/");
}

/* path joined to base (make's directory at the compile), resolved; NULL when it is not there. */
static char *locate(const char *path, const char *base)
{
	char *joined = path[0] == '/' || !base ? xstrdup(path) : xasprintf("%s/%s", base, path);
	char *real = realpath(joined, NULL);
	free(joined);
	return real;
}

static void add_path(struct strmap *seen, char *path, struct compiled *out)
{
	void **slot = strmap_slot(seen, path, 1);
	if (*slot || out->n >= COMPILED_MAX_FILES) {
		out->capped += !*slot;
		free(path);
		return;
	}
	*slot = (void *)1;
	out->paths = grow_array(out->paths, out->n, &out->cap, sizeof *out->paths, 256);
	out->paths[out->n++] = path;
}

/* Every file with a source suffix under dir (not entering skip), into out. */
static void add_tree(struct strmap *seen, const char *dir, const char *const *skip, struct compiled *out)
{
	struct file_list l = {0};
	for (const char *const *s = fingerprint_default_suffixes; *s; s++)
		if (find_files(&l, dir, *s, skip) < 0)
			break;
	for (int i = 0; i < l.n; i++) {
		add_path(seen, l.paths[i], out);
		l.paths[i] = NULL;
	}
	file_list_free(&l);
}

int compiled_files(const struct build_log *log, const char *objdir, const char *const *skip, struct compiled *out)
{
	struct strmap seen = {0}, dirs = {0};
	char *base_dir = realpath(objdir, NULL);
	memset(out, 0, sizeof *out);
	for (int k = 0; k < log->nc; k++) {
		const struct log_compile *c = &log->c[k];
		const char *base = c->dir ? c->dir : base_dir;
		char *src = locate(c->source, base);
		if (!src || is_system(src)) {
			free(src);
			continue;
		}
		out->sources++;
		/* the source's directory and its -I directories: the headers it may include */
		char *slash = strrchr(src, '/');
		char *dir = slash > src ? xasprintf("%.*s", (int)(slash - src), src) : xstrdup("/");
		add_path(&seen, src, out);
		for (int i = -1; i < c->nincludes; i++) {
			char *d = i < 0 ? dir : locate(c->includes[i], base);
			struct stat st;
			if (d && !is_system(d) && strcmp(d, "/") && stat(d, &st) == 0 && S_ISDIR(st.st_mode) &&
			    !strmap_get(&dirs, d)) {
				*strmap_slot(&dirs, d, 1) = (void *)1;
				add_tree(&seen, d, skip, out);
			}
			free(d);
		}
	}
	free(base_dir);
	strmap_free(&seen, NULL);
	strmap_free(&dirs, NULL);
	return out->sources;
}
