/* Tables built on first use and then only read, shared by every thread
 * that uses the library (each with its own ptxsurf_context): the first
 * caller builds, the others wait for it, and a built table costs one
 * acquire load (a plain load on x86). Zero-initialised, so `static
 * OnceFlag f;` is ready to use; no lock, no pthread dependency. Builders
 * may use other OnceFlags, never their own. */
#ifndef PTXSURF_ONCE_H
#define PTXSURF_ONCE_H

#include <sched.h>
#include <stdatomic.h>
#include <stdbool.h>

typedef struct OnceFlag {
	atomic_int state;       /* 0 not built, 1 being built, 2 built */
} OnceFlag;

/* True when the caller must build the table and then call once_done(). */
static inline bool once_claim(OnceFlag *f)
{
	if (atomic_load_explicit(&f->state, memory_order_acquire) == 2)
		return false;
	int expected = 0;
	if (atomic_compare_exchange_strong_explicit(&f->state, &expected, 1, memory_order_acquire,
						    memory_order_acquire))
		return true;
	while (atomic_load_explicit(&f->state, memory_order_acquire) != 2)
		sched_yield();
	return false;
}

static inline void once_done(OnceFlag *f)
{
	atomic_store_explicit(&f->state, 2, memory_order_release);
}

/* Runs `build` (a statement) exactly once for `flag`. */
#define ONCE(flag, build)                     \
	do {                                  \
		if (once_claim(flag)) {       \
			build;                \
			once_done(flag);      \
		}                             \
	} while (0)

#endif
