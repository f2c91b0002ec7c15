/* compiled.h - which files a build read, from its log: each compile's source, and every
 * source or header file under the source's directory and its -I directories (what it may
 * include).  What an edit after the build can change: the pipeline fingerprints these after
 * the profile-use build, so an edit rebuilds without a source tree being named. */
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

/* Collects the files of the compile commands in log; objdir is where make ran when the log
 * says no "Entering directory".  System directories (/usr, /lib, /opt) are left out, and
 * directories named in skip are not entered.  Returns how many compile sources were found. */
int compiled_files(const struct build_log *log, const char *objdir, const char *const *skip, struct compiled *out);
void compiled_free(struct compiled *c);

#endif
