/* Reading whole input files (or stdin) into memory, with the two trailing
 * NUL bytes the scanner needs to scan in place. */
#ifndef PTXSURF_INPUT_H
#define PTXSURF_INPUT_H

#include <stddef.h>

typedef struct InputFile {
	const char *name;   /* as given; "<stdin>" for "-" */
	char *data;         /* len bytes + 2 NULs */
	size_t len;
} InputFile;

/* Returns 0, or -1 with a message in err. */
int input_read(InputFile *f, const char *path, char *err, size_t errlen);
void input_free(InputFile *f);

#endif
