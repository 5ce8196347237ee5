/* malloc wrappers that never return NULL: an assembler out of memory (or
 * past an internal limit) cannot continue meaningfully. xdie() leaves for
 * the innermost XdieTrap of the calling thread (the library's entry points
 * and the command line set one); the library itself never prints or exits.
 * Without a trap it aborts. */
#ifndef PTXSURF_XALLOC_H
#define PTXSURF_XALLOC_H

#include <setjmp.h>
#include <stddef.h>

void *xmalloc(size_t n);
void *xcalloc(size_t n, size_t size);
void *xrealloc(void *p, size_t n);
char *xstrdup(const char *s);
_Noreturn void xdie(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

/* Where xdie() jumps: set `env` with setjmp, then install the trap; when
 * setjmp returns nonzero, `msg` says why. Traps are per thread and nest:
 * xdie_trap returns the previous one, to be reinstalled when done. */
typedef struct XdieTrap {
	jmp_buf env;
	char msg[256];
} XdieTrap;
XdieTrap *xdie_trap(XdieTrap *t);

#endif
