/* coverage_match.c - which unit a report's path is: group patterns, a source and its object
 * (apart from the coverage command, which exports only itself). */
#include "profile/coverage.h"
#include "lib/util.h"

#include <fnmatch.h>
#include <string.h>

int cov_path_matches(const char *pattern, const char *path)
{
	for (const char *p = path; p; p = strchr(p, '/'), p = p ? p + 1 : NULL)
		if (fnmatch(pattern, p, 0) == 0)
			return 1;
	return 0;
}

/* The path without its extension and any leading "./" or "../": a source and its object match. */
static size_t stem(const char *path, const char **start)
{
	while (starts_with(path, "./") || starts_with(path, "../"))
		path += path[1] == '/' ? 2 : 3;
	*start = path;
	const char *dot = strrchr(path, '.'), *slash = strrchr(path, '/');
	return dot && (!slash || dot > slash) ? (size_t)(dot - path) : strlen(path);
}

int cov_same_unit(const char *a, const char *b)
{
	const char *sa, *sb;
	size_t la = stem(a, &sa), lb = stem(b, &sb);
	if (la < lb)
		return cov_same_unit(b, a);
	return lb > 0 && !strncmp(sa + la - lb, sb, lb) && (la == lb || sa[la - lb - 1] == '/');
}

const char *cov_object_for_file(char *const *objects, int n, const char *file)
{
	const char *found = NULL;
	if (strchr(file, '/') || !strcmp(file, COV_NO_FILE))
		return NULL;
	for (int i = 0; i < n; i++) {
		const char *slash = strrchr(objects[i], '/'), *base = slash ? slash + 1 : objects[i];
		if (cov_same_unit(base, file)) {
			if (found)
				return NULL;
			found = objects[i];
		}
	}
	return found;
}
