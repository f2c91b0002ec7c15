/* twins.h - libtool's two copies of a library object given one training's counts (twins.c). */
#ifndef PROFOPT_TWINS_H
#define PROFOPT_TWINS_H

/* gcc: every X.gcda under dir whose libtool twin (.libs/X.o beside X.o, or the reverse) has no
 * .gcda gives it the counts of the functions compiled alike in both; says what it did. */
void libtool_twins(const char *dir, const char *const *skip);

#endif
