/* Why a report stream failed. A stream whose write failed during the run (a flush at each
 * interval) keeps only its error flag, and the errno of that write is long gone when it is
 * closed: a full file system, by far the usual cause, is then told from the free space. */
#include "ioramp/report.h"

#include <errno.h>
#include <sys/statvfs.h>
#include <unistd.h>

int rep_write_cause(FILE *f, int ret)
{
	struct statvfs sv;

	if (ret != -EIO || !f || fstatvfs(fileno(f), &sv))
		return ret;
	/* root may use the blocks reserved for it, others only what is available */
	if ((geteuid() ? sv.f_bavail : sv.f_bfree) == 0 || (sv.f_files && !sv.f_ffree))
		return -ENOSPC;
	return ret;
}
