/* stamp.h - stage stamps: a pipeline stage is done when its stamp exists.  The stamp holds a
 * one-line JSON record of the stage (name, duration, status, stage-specific facts), written
 * atomically so that an interrupted stage never leaves a stamp behind. */
#ifndef PROFOPT_STAMP_H
#define PROFOPT_STAMP_H

#include <stddef.h>

/* extra: further JSON members ("\"k\": 1, \"m\": \"x\"") or NULL. Exits on failure. */
void stamp_write(const char *path, const char *stage, double seconds, const char *extra);

/* Whether data is a stage record: a JSON object with string "stage" and "status" (summary.c,
 * where stamps are read).  Returns 0, or -1 with the reason in err. */
int stamp_record_check(const char *data, size_t len, char *err, size_t errlen);

#endif
