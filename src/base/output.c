/* realpath(3) is an XSI interface. */
#define _XOPEN_SOURCE 700
#include "base/output.h"
#include "base/xalloc.h"

#include <errno.h>
#include <stdbool.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

static int write_all(int fd, const char *p, size_t len)
{
	while (len) {
		ssize_t n = write(fd, p, len);
		if (n < 0) {
			if (errno == EINTR)
				continue;
			return -1;
		}
		p += n;
		len -= (size_t)n;
	}
	return 0;
}

/* The bytes go to a temporary file next to the target, which replaces it
 * only once complete. */
static int replace_file(const char *path, const struct stat *old, const void *data, size_t len,
			char *err, size_t errlen)
{
	/* Keep the permissions of a file being replaced; a new file gets what
	 * open(2) would give it under the current umask. */
	mode_t um = umask(0);
	umask(um);
	mode_t mode = old ? (old->st_mode & 07777) : (0666 & ~um);
	size_t plen = strlen(path);
	char *tmp = xmalloc(plen + 16);
	const char *slash = strrchr(path, '/');
	size_t dirlen = slash ? (size_t)(slash - path) + 1 : 0;
	/* mkstemp replaces a template's six trailing 'X' characters */
	char pattern[7];
	memset(pattern, 'X', 6);
	pattern[6] = 0;
	snprintf(tmp, plen + 16, "%.*s.%s.%s", (int)dirlen, path, path + dirlen, pattern);
	int fd = mkstemp(tmp);
	if (fd < 0) {
		snprintf(err, errlen, "cannot create '%s': %s", path, strerror(errno));
		free(tmp);
		return -1;
	}
	int rc = write_all(fd, data, len);
	if (rc == 0)
		rc = fsync(fd);
	if (rc == 0)
		rc = fchmod(fd, mode);
	int saved = errno;
	if (close(fd) != 0 && rc == 0) {
		rc = -1;
		saved = errno;
	}
	if (rc == 0 && rename(tmp, path) != 0) {
		rc = -1;
		saved = errno;
	}
	if (rc != 0) {
		unlink(tmp);
		snprintf(err, errlen, "cannot write '%s': %s", path, strerror(saved));
	}
	free(tmp);
	return rc;
}

/* Writes straight into something that is not a regular file (a terminal,
 * /dev/null, /dev/full, a FIFO): replacing it with a file would be wrong. */
static int write_direct(const char *path, const void *data, size_t len, char *err, size_t errlen)
{
	int fd = open(path, O_WRONLY);
	if (fd < 0) {
		snprintf(err, errlen, "cannot open '%s': %s", path, strerror(errno));
		return -1;
	}
	int rc = write_all(fd, data, len);
	int saved = errno;
	if (close(fd) != 0 && rc == 0) {
		rc = -1;
		saved = errno;
	}
	if (rc != 0)
		snprintf(err, errlen, "cannot write '%s': %s", path, strerror(saved));
	return rc;
}

int output_write_atomic(const char *path, const void *data, size_t len, char *err, size_t errlen)
{
	if (strcmp(path, "-") == 0) {
		if (write_all(STDOUT_FILENO, data, len) != 0) {
			snprintf(err, errlen, "cannot write to standard output: %s", strerror(errno));
			return -1;
		}
		return 0;
	}
	/* Through a symlink, the file it points to is what gets replaced. */
	char *resolved = NULL;
	struct stat st;
	if (lstat(path, &st) == 0 && S_ISLNK(st.st_mode)) {
		resolved = realpath(path, NULL);
		if (!resolved) {
			snprintf(err, errlen, "cannot write '%s': it is a symbolic link to a missing file", path);
			return -1;
		}
		path = resolved;
	}
	int rc = -1;
	bool exists = stat(path, &st) == 0;
	if (exists && S_ISDIR(st.st_mode)) {
		snprintf(err, errlen, "cannot write '%s': it is a directory", path);
	} else if (exists && !S_ISREG(st.st_mode)) {
		rc = write_direct(path, data, len, err, errlen);
	} else if (exists && ((st.st_mode & 0222) == 0 || access(path, W_OK) != 0)) {
		/* A read-only file stays as it is, even for root. */
		snprintf(err, errlen, "cannot write '%s': %s (the file is read-only)", path, strerror(EACCES));
	} else {
		rc = replace_file(path, exists ? &st : NULL, data, len, err, errlen);
	}
	free(resolved);
	return rc;
}
