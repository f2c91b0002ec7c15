/* hidden.h - a failed compile's message that libtool sent to /dev/null (hidden.c). */
#ifndef PROFOPT_HIDDEN_H
#define PROFOPT_HIDDEN_H

/* After a failed build: the last compile of the log at path whose output libtool discarded
 * and whose object is missing runs again (in its make directory, else cwd), its words shown. */
void show_hidden_compile(const char *log, const char *cwd);

#endif
