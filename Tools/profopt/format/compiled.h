/* compiled.h - the files a build may have read, from its log: each compile's source and every
 * source or header under its directory and -I directories; fingerprinted after the profile-use
 * build so that an edit rebuilds without a source tree being named. */
#ifndef PROFOPT_COMPILED_H
#define PROFOPT_COMPILED_H

#include "format/buildlog.h"

#define COMPILED_MAX_FILES 200000 /* beyond this, the rest is not fingerprinted (said) */

struct compiled {
	char **paths; /* absolute, resolved, each once */
	int n, cap;
	int sources; /* compile commands whose source was found */
	int capped;  /* files left out over COMPILED_MAX_FILES */
};

/* objdir: where make ran when the log says no "Entering directory".  /usr, /lib, /opt are left
 * out, skip is not entered.  Returns how many compile sources were found. */
int compiled_files(const struct build_log *log, const char *objdir, const char *const *skip, struct compiled *out);

#endif
