/* The output directory is this execution's alone while it runs: an exclusive flock on the
 * directory itself (no file added to VDbench's layout), taken before anything in it is
 * deleted and held until the process ends. A second ioramp on the same -o is refused;
 * before, it deleted the first one's reports while that one was still writing them. */
#include "ioramp/report.h"

#include <errno.h>
#include <fcntl.h>
#include <stdint.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <unistd.h>

#define OUTDIR_LOCKS_MAX 64 /* a suite's profile directories, one process */

static struct {
	dev_t dev;
	ino_t ino;
} held[OUTDIR_LOCKS_MAX];
static size_t nr_held;

int rep_outdir_lock(const char *dir)
{
	struct stat st;
	int fd = open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);

	if (fd < 0)
		return -errno;
	if (fstat(fd, &st)) {
		int err = -errno;

		close(fd);
		return err;
	}
	for (size_t i = 0; i < nr_held; i++)
		if (held[i].dev == st.st_dev && held[i].ino == st.st_ino) {
			close(fd); /* this process holds it already */
			return 0;
		}
	if (flock(fd, LOCK_EX | LOCK_NB)) {
		int err = errno == EWOULDBLOCK ? -EBUSY : -errno;

		close(fd);
		return err;
	}
	if (nr_held < OUTDIR_LOCKS_MAX) {
		held[nr_held].dev = st.st_dev;
		held[nr_held].ino = st.st_ino;
		nr_held++;
	}
	return 0; /* fd stays open: the lock lasts as long as the process */
}
