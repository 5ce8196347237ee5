/* Shared by the probe generators of the ptxas oracles (included, header
 * only: each generator is one C file built by oracle_generate): the
 * numbered probe files DIR/NNNN.ptx, opened and closed with their errors
 * reported, since a probe lost to a full disk would silently shrink the
 * comparison. */
#ifndef PTXSURF_PROBE_FILE_H
#define PTXSURF_PROBE_FILE_H

#include <stdio.h>
#include <stdlib.h>

/* Opens DIR/NNNN.ptx for the next probe number *n (then incremented);
 * exits 2 when it cannot. */
static FILE *probe_open(const char *dir, int *n)
{
	char path[4096];
	snprintf(path, sizeof path, "%s/%04d.ptx", dir, (*n)++);
	FILE *f = fopen(path, "w");
	if (!f) {
		perror(path);
		exit(2);
	}
	return f;
}

/* Closes a probe, exiting 2 when its text did not reach the file. */
static void probe_close(FILE *f)
{
	if (fclose(f) != 0) {
		perror("probe");
		exit(2);
	}
}

#endif
