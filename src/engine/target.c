/* Opens an SD's target and finds its size and block size; probes a device for signatures
 * (libblkid) and for mounts or exclusive holders, so that writes can be refused before a run.
 * Not on the hot path: stdio and allocation are fine here. */
#include "target.h"

#include <blkid/blkid.h>
#include <errno.h>
#include <fcntl.h>
#include <linux/fs.h>
#include <mntent.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/stat.h>
#include <unistd.h>

#include "ioramp/compiler.h"

#define TARGET_MIN_BLOCK_BYTES 512u /* VDbench's unit, and the smallest sector */

static int target_errf(char *err, size_t errlen, int ret, const char *fmt, ...) IORAMP_PRINTF(4, 5);

/* Fills err (truncated to errlen) and returns ret, so reporting is one statement. */
static int target_errf(char *err, size_t errlen, int ret, const char *fmt, ...)
{
	va_list ap;

	if (errlen == 0)
		return ret;
	va_start(ap, fmt);
	vsnprintf(err, errlen, fmt, ap);
	va_end(ap);
	return ret;
}

static int target_kind(mode_t mode, enum eng_target_kind *kind)
{
	if (S_ISREG(mode))
		*kind = ENG_TARGET_FILE;
	else if (S_ISBLK(mode))
		*kind = ENG_TARGET_BLOCK;
	else if (S_ISCHR(mode))
		*kind = ENG_TARGET_CHAR;
	else
		return -EINVAL;
	return 0;
}

/* open(2), telling a file system that refuses O_DIRECT (EINVAL) from other failures. */
static int target_open_fd(struct eng_target *t, int flags, char *err, size_t errlen)
{
	int fd, ret;

	t->fd = open(t->path, flags | O_CLOEXEC);
	if (t->fd >= 0)
		return 0;
	ret = -errno;
	if (ret == -EINVAL && (flags & O_DIRECT)) {
		fd = open(t->path, (flags & ~O_DIRECT) | O_CLOEXEC);
		if (fd >= 0) {
			close(fd);
			return target_errf(err, errlen, ret,
					   "lun=%s: cannot open with o_direct: the file system "
					   "does not support direct I/O",
					   t->path);
		}
	}
	return target_errf(err, errlen, ret, "lun=%s: cannot open: %s", t->path, strerror(-ret));
}

static int target_block_info(struct eng_target *t, char *err, size_t errlen)
{
	uint64_t size_bytes;
	int ssz, ret;

	if (ioctl(t->fd, BLKSSZGET, &ssz) < 0) {
		ret = -errno;
		return target_errf(err, errlen, ret,
				   "lun=%s: cannot read the logical block size: %s", t->path,
				   strerror(-ret));
	}
	if (ioctl(t->fd, BLKGETSIZE64, &size_bytes) < 0) {
		ret = -errno;
		return target_errf(err, errlen, ret, "lun=%s: cannot read the size: %s", t->path,
				   strerror(-ret));
	}
	t->block_bytes = ssz > 0 ? (uint32_t)ssz : TARGET_MIN_BLOCK_BYTES;
	t->mem_align_bytes = t->block_bytes < 4096 ? t->block_bytes : 4096;
	t->size_bytes = size_bytes;
	return 0;
}

/* With O_DIRECT, a file system that reports its direct I/O alignment (statx, Linux 6.1) sets
 * the block size; others get 512, and a misaligned I/O fails with EINVAL at run time. */
static void target_file_info(struct eng_target *t, const struct stat *st)
{
	t->size_bytes = (uint64_t)st->st_size;
	t->block_bytes = TARGET_MIN_BLOCK_BYTES;
	t->mem_align_bytes = TARGET_MIN_BLOCK_BYTES;
#ifdef STATX_DIOALIGN
	struct statx stx;

	if (t->is_direct && statx(t->fd, "", AT_EMPTY_PATH, STATX_DIOALIGN, &stx) == 0 &&
	    (stx.stx_mask & STATX_DIOALIGN) && stx.stx_dio_offset_align > 0) {
		if (stx.stx_dio_offset_align > t->block_bytes)
			t->block_bytes = stx.stx_dio_offset_align;
		t->mem_align_bytes = stx.stx_dio_mem_align;
	}
#endif
}

static int target_describe(struct eng_target *t, char *err, size_t errlen)
{
	struct stat st;
	int ret;

	if (fstat(t->fd, &st) < 0) {
		ret = -errno;
		return target_errf(err, errlen, ret, "lun=%s: cannot stat: %s", t->path,
				   strerror(-ret));
	}
	if (target_kind(st.st_mode, &t->kind) < 0)
		return target_errf(err, errlen, -EINVAL,
				   "lun=%s: not a block device, character device or regular file",
				   t->path);
	if (t->kind == ENG_TARGET_BLOCK) {
		t->rdev = st.st_rdev;
		return target_block_info(t, err, errlen);
	}
	if (t->kind == ENG_TARGET_CHAR) {
		t->rdev = st.st_rdev;
		t->block_bytes = TARGET_MIN_BLOCK_BYTES;
		t->mem_align_bytes = TARGET_MIN_BLOCK_BYTES;
		return 0;
	}
	target_file_info(t, &st);
	return 0;
}

int eng_target_open(struct eng_target *t, const char *path, int flags, char *err, size_t errlen)
{
	enum eng_target_kind kind;
	struct stat st;
	int ret;

	*t = (struct eng_target)ENG_TARGET_INIT;
	flags &= O_ACCMODE | O_DIRECT | O_DSYNC | O_SYNC;
	/* stat first: opening a FIFO would block, a directory is not a target */
	if (stat(path, &st) < 0) {
		ret = -errno;
		return target_errf(err, errlen, ret, "lun=%s: cannot open: %s", path,
				   strerror(-ret));
	}
	if (target_kind(st.st_mode, &kind) < 0)
		return target_errf(err, errlen, -EINVAL,
				   "lun=%s: not a block device, character device or regular file",
				   path);
	t->path = strdup(path);
	if (!t->path)
		return target_errf(err, errlen, -ENOMEM, "lun=%s: out of memory", path);
	t->is_direct = flags & O_DIRECT;
	t->is_writable = (flags & O_ACCMODE) == O_RDWR;
	ret = target_open_fd(t, flags, err, errlen);
	if (ret < 0)
		goto err_free;
	ret = target_describe(t, err, errlen);
	if (ret < 0)
		goto err_close;
	return 0;

err_close:
	close(t->fd);
err_free:
	free(t->path);
	*t = (struct eng_target)ENG_TARGET_INIT;
	return ret;
}

void eng_target_close(struct eng_target *t)
{
	if (t->fd >= 0)
		close(t->fd);
	free(t->path);
	*t = (struct eng_target)ENG_TARGET_INIT;
}

/* Names what a finished safe probe found: a superblock TYPE or a partition table PTTYPE. */
static void target_signature_name(blkid_probe pr, char *sig, size_t siglen)
{
	const char *val;

	if (blkid_probe_lookup_value(pr, "TYPE", &val, NULL) == 0)
		snprintf(sig, siglen, "%s", val);
	else if (blkid_probe_lookup_value(pr, "PTTYPE", &val, NULL) == 0)
		snprintf(sig, siglen, "%s partition table", val);
	else
		snprintf(sig, siglen, "an unnamed signature");
}

int eng_target_probe_signature(const struct eng_target *t, char *sig, size_t siglen, char *err,
			       size_t errlen)
{
	blkid_probe pr;
	int rc;

	errno = 0;
	pr = blkid_new_probe_from_filename(t->path);
	if (!pr) {
		rc = errno ? -errno : -ENOMEM;
		return target_errf(err, errlen, rc, "lun=%s: cannot probe for signatures: %s",
				   t->path, strerror(-rc));
	}
	blkid_probe_enable_superblocks(pr, 1);
	blkid_probe_set_superblocks_flags(pr, BLKID_SUBLKS_TYPE);
	blkid_probe_enable_partitions(pr, 1);
	rc = blkid_do_safeprobe(pr); /* 0 found, 1 nothing, -2 ambivalent, -1 error */
	if (rc == 0)
		target_signature_name(pr, sig, siglen);
	else if (rc == -2)
		snprintf(sig, siglen, "ambiguous signatures");
	blkid_free_probe(pr);
	if (rc == 1)
		return 0;
	if (rc == -1)
		return target_errf(err, errlen, -EIO, "lun=%s: cannot probe for signatures: %s",
				   t->path, strerror(EIO));
	return 1;
}

/* 1 when a /proc/self/mounts entry's device is this one, with holder naming the mount point. */
static int target_find_mount(const struct eng_target *t, char *holder, size_t holderlen)
{
	struct mntent ent;
	char line[4096];
	FILE *f;
	int ret = 0;

	f = setmntent("/proc/self/mounts", "re");
	if (!f)
		f = setmntent("/proc/mounts", "re");
	if (!f)
		return -errno;
	while (!ret && getmntent_r(f, &ent, line, sizeof(line))) {
		struct stat st;

		if (ent.mnt_fsname[0] != '/' || stat(ent.mnt_fsname, &st) < 0)
			continue;
		if (S_ISBLK(st.st_mode) && st.st_rdev == t->rdev) {
			snprintf(holder, holderlen, "mounted on %s", ent.mnt_dir);
			ret = 1;
		}
	}
	endmntent(f);
	return ret;
}

int eng_target_find_holder(const struct eng_target *t, char *holder, size_t holderlen, char *err,
			   size_t errlen)
{
	int fd, ret;

	if (t->kind != ENG_TARGET_BLOCK)
		return 0;
	ret = target_find_mount(t, holder, holderlen);
	if (ret < 0)
		return target_errf(err, errlen, ret, "lun=%s: cannot read the mount table: %s",
				   t->path, strerror(-ret));
	if (ret)
		return 1;
	/* Our own fd is not exclusive, so only another holder makes this fail. */
	fd = open(t->path, O_RDONLY | O_EXCL | O_CLOEXEC);
	if (fd >= 0) {
		close(fd);
		return 0;
	}
	ret = -errno;
	if (ret == -EBUSY) {
		snprintf(holder, holderlen,
			 "in use (a mounted partition, swap, md, device mapper or another mount)");
		return 1;
	}
	return target_errf(err, errlen, ret, "lun=%s: cannot check whether it is in use: %s",
			   t->path, strerror(-ret));
}
