/* stamp.h - stage stamps: a pipeline stage is done when its stamp exists.  The stamp holds a
 * one-line JSON record of the stage (name, duration, status, stage-specific facts), written
 * atomically so that an interrupted stage never leaves a stamp behind. */
#ifndef PROFOPT_STAMP_H
#define PROFOPT_STAMP_H

/* extra: further JSON members ("\"k\": 1, \"m\": \"x\"") or NULL. Exits on failure. */
void stamp_write(const char *path, const char *stage, double seconds, const char *extra);

#endif
