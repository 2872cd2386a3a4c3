/* Opens an SD's target and finds its size and block size; probes a device for signatures
 * (libblkid) and for mounts or exclusive holders, so that writes can be refused before a run.
 * Not on the hot path: stdio and allocation are fine here. */
#include "target.h"

#include <blkid/blkid.h>
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <linux/fs.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <time.h>
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

/* What to do about a refused open: a device needs root or its group (disk), a file its mode. */
static const char *access_hint(const struct eng_target *t, int ret)
{
	if (ret != -EACCES && ret != -EPERM)
		return "";
	if (t->kind == ENG_TARGET_BLOCK || t->kind == ENG_TARGET_CHAR)
		return "; expected to run as root, as a member of the device's group (often "
		       "disk: usermod -aG disk USER, then log in again), or a file as the lun";
	return "; expected a file this user may open (see its mode and owner), or another lun";
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
	return target_errf(err, errlen, ret, "lun=%s: cannot open: %s%s", t->path, strerror(-ret),
			   access_hint(t, ret));
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

/* Who holds a device when sysfs names no holder: a mount, swap or another O_EXCL opener. */
#define HOLDER_UNNAMED \
	"held exclusively by a file system, swap, md, device mapper or another program"

/*
 * How long an exclusive holder that no one names is waited for: a process that has just
 * exited (an earlier run killed, fio's io_uring) keeps its claim until the kernel's deferred
 * teardown of its ring releases its files, a few milliseconds later.
 */
#define BUSY_WAIT_NS	  1000000000L
#define BUSY_WAIT_STEP_NS 5000000L

/* open(path, flags | O_EXCL), waited for BUSY_WAIT_NS while the device is busy: fd or -errno. */
static int open_excl_waiting(const char *path, int flags)
{
	const struct timespec step = { .tv_nsec = BUSY_WAIT_STEP_NS };
	int fd;

	for (long waited = 0;; waited += BUSY_WAIT_STEP_NS) {
		fd = open(path, flags | O_EXCL | O_CLOEXEC);
		if (fd >= 0 || errno != EBUSY || waited >= BUSY_WAIT_NS)
			return fd >= 0 ? fd : -errno;
		nanosleep(&step, NULL);
	}
}

/* A device to be written that someone already holds exclusively: who, where it is known.
 * Returns 0 with t->fd open when the holder, unnamed, let go within BUSY_WAIT_NS. */
static int target_busy(struct eng_target *t, int flags, const struct stat *st, char *err,
		       size_t errlen)
{
	struct eng_target probe = { .path = t->path,
				    .kind = ENG_TARGET_BLOCK,
				    .rdev = st->st_rdev };
	char holder[512] = "", msg[512];
	int ret = eng_target_find_holder(&probe, holder, sizeof(holder), msg, sizeof(msg));

	if (ret == 0) { /* gone while we looked: open again */
		ret = target_open_fd(t, flags, err, errlen);
		if (ret != -EBUSY)
			return ret;
	}
	if (ret <= 0)
		snprintf(holder, sizeof(holder), "%s", HOLDER_UNNAMED);
	return target_errf(err, errlen, -EBUSY,
			   "lun=%s is in use (%s); ioramp never writes to a mounted or held device",
			   t->path, holder);
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
	t->kind = kind; /* for the error's hint; target_describe() sets it again */
	t->is_excl = kind == ENG_TARGET_BLOCK && t->is_writable;
	flags |= t->is_excl ? O_EXCL : 0;
	ret = target_open_fd(t, flags, err, errlen);
	if (ret == -EBUSY && t->is_excl)
		ret = target_busy(t, flags, &st, err, errlen);
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

enum {
	HOLDER_MAX_DEPTH = 8, /* partitions, then dm/md stacks: deep enough, and no loops */
};

/* Decodes mountinfo's octal escapes (\040 for a blank) in place. */
static void unescape_octal(char *s)
{
	char *out = s;

	for (; *s; s++) {
		if (s[0] == '\\' && s[1] >= '0' && s[1] <= '3' && s[2] >= '0' && s[2] <= '7' &&
		    s[3] >= '0' && s[3] <= '7') {
			*out++ = (char)((s[1] - '0') * 64 + (s[2] - '0') * 8 + (s[3] - '0'));
			s += 3;
		} else {
			*out++ = *s;
		}
	}
	*out = '\0';
}

/* 1 with mnt set when device maj:min is mounted (by number: /dev/root and renamed nodes match
 * too), 0 when not, -errno when the table cannot be read. */
static int find_mount(const struct eng_holder_query *q, unsigned int maj, unsigned int min,
		      char *mnt, size_t mntlen)
{
	char line[4096], dir[4096];
	FILE *f = fopen(q->mountinfo, "re");
	int ret = 0;

	if (!f)
		return -errno;
	while (!ret && fgets(line, sizeof(line), f)) {
		unsigned int a, b;

		if (sscanf(line, "%*u %*u %u:%u %*s %4095s", &a, &b, dir) == 3 && a == maj &&
		    b == min) {
			unescape_octal(dir);
			if (snprintf(mnt, mntlen, "%s", dir) >= (int)mntlen)
				snprintf(mnt + mntlen - 4, 4, "...");
			ret = 1;
		}
	}
	fclose(f);
	return ret;
}

/* 1 when /proc/swaps lists a device with this number. */
static int find_swap(const struct eng_holder_query *q, unsigned int maj, unsigned int min)
{
	char line[4096], path[4096];
	FILE *f = fopen(q->swaps, "re");
	int ret = 0;

	if (!f)
		return 0; /* no swap table: nothing is swap */
	while (!ret && fgets(line, sizeof(line), f)) {
		struct stat st;

		if (sscanf(line, "%4095s", path) == 1 && path[0] == '/' && stat(path, &st) == 0 &&
		    S_ISBLK(st.st_mode) && major(st.st_rdev) == maj && minor(st.st_rdev) == min)
			ret = 1;
	}
	fclose(f);
	return ret;
}

/* Reads "MAJ:MIN" from a sysfs dev file. Returns 0 or -errno. */
static int read_devno(const char *path, unsigned int *maj, unsigned int *min)
{
	FILE *f = fopen(path, "re");
	int n;

	if (!f)
		return -errno;
	n = fscanf(f, "%u:%u", maj, min);
	fclose(f);
	return n == 2 ? 0 : -EINVAL;
}

/* Whether dir/name/partition exists: name is a partition of the device at dir. */
static bool is_partition(const char *dir, const char *name)
{
	char path[8192];

	if (snprintf(path, sizeof(path), "%s/%s/partition", dir, name) >= (int)sizeof(path))
		return false;
	return access(path, F_OK) == 0;
}

static int walk_holders(struct eng_holder_query *q, unsigned int maj, unsigned int min,
			const char *via, int depth);

/* Each partition (a subdirectory with a "partition" file) and each holders/ entry of the
 * device's sysfs directory dir, searched in turn. */
static int walk_children(struct eng_holder_query *q, const char *dir, const char *sub, int depth)
{
	char path[4096 + 512], via[300];
	struct dirent *de;
	DIR *d;
	int ret = 0;

	snprintf(path, sizeof(path), "%s%s", dir, sub);
	d = opendir(path);
	if (!d)
		return 0; /* no partitions or no holders directory */
	while (!ret && (de = readdir(d))) {
		unsigned int maj, min;
		bool is_holder = sub[0] != '\0';

		if (de->d_name[0] == '.' || (!is_holder && !is_partition(path, de->d_name)))
			continue;
		if (snprintf(path, sizeof(path), "%s%s/%s/dev", dir, sub, de->d_name) >=
			    (int)sizeof(path) ||
		    read_devno(path, &maj, &min)) {
			snprintf(path, sizeof(path), "%s%s", dir, sub);
			continue;
		}
		snprintf(via, sizeof(via), "%s /dev/%.255s", is_holder ? "held by" : "partition",
			 de->d_name);
		ret = walk_holders(q, maj, min, via, depth + 1);
		snprintf(path, sizeof(path), "%s%s", dir, sub);
	}
	closedir(d);
	return ret;
}

/*
 * Whether device maj:min, one of its partitions, or a device stacked on it (dm, md: its
 * holders/ in sysfs), recursively, is mounted or used as swap. Returns 1 with holder naming
 * the way ("partition loop0p1 is mounted on /mnt", "held by /dev/dm-0, mounted on /data"), 0 or
 * -errno from the mount table.
 */
static int walk_holders(struct eng_holder_query *q, unsigned int maj, unsigned int min,
			const char *via, int depth)
{
	char dir[4096], mnt[200]; /* a longer mount point is cut short with "..." */
	int ret;

	if (depth > HOLDER_MAX_DEPTH)
		return 0;
	ret = find_mount(q, maj, min, mnt, sizeof(mnt));
	if (ret > 0 && via[0])
		snprintf(q->holder, sizeof(q->holder), "%.290s, mounted on %s", via, mnt);
	else if (ret > 0)
		snprintf(q->holder, sizeof(q->holder), "mounted on %s", mnt);
	else if (!ret && find_swap(q, maj, min))
		snprintf(q->holder, sizeof(q->holder), "%s%sused as swap", via, via[0] ? ", " : "");
	else if (!ret) {
		snprintf(dir, sizeof(dir), "%s/dev/block/%u:%u", q->sysfs, maj, min);
		ret = walk_children(q, dir, "", depth);
		if (!ret)
			ret = walk_children(q, dir, "/holders", depth);
		return ret;
	}
	return ret < 0 ? ret : 1;
}

/* The names in the device's holders/ directory ("dm-0, md0"), or "" when none. */
static void holder_names(const struct eng_holder_query *q, uint64_t rdev, char *buf, size_t len)
{
	char path[4096];
	struct dirent *de;
	size_t n = 0;
	DIR *d;

	buf[0] = '\0';
	snprintf(path, sizeof(path), "%s/dev/block/%u:%u/holders", q->sysfs, major((dev_t)rdev),
		 minor((dev_t)rdev));
	d = opendir(path);
	if (!d)
		return;
	while ((de = readdir(d)) && n + 2 < len) {
		if (de->d_name[0] == '.')
			continue;
		n += (size_t)snprintf(buf + n, len - n, "%s%s", n ? ", " : "", de->d_name);
		if (n >= len)
			n = len - 1;
	}
	closedir(d);
}

int eng_target_find_holder_in(const struct eng_target *t, struct eng_holder_query *q)
{
	char names[256];
	int fd, ret;

	q->holder[0] = q->err[0] = '\0';
	if (t->kind != ENG_TARGET_BLOCK)
		return 0;
	ret = walk_holders(q, major((dev_t)t->rdev), minor((dev_t)t->rdev), "", 0);
	if (ret < 0)
		return target_errf(q->err, sizeof(q->err), ret,
				   "lun=%s: cannot read the mount table: %s", t->path,
				   strerror(-ret));
	if (ret)
		return 1;
	if (t->is_excl)
		return 0; /* our own O_EXCL open succeeded: no one else holds it */
	/* Our own fd is not exclusive, so only another holder makes this fail: a device
	 * stacked on it that is not mounted, or a mount in another namespace. */
	fd = open_excl_waiting(t->path, O_RDONLY);
	if (fd >= 0) {
		close(fd);
		return 0;
	}
	ret = fd;
	if (ret == -EBUSY) {
		holder_names(q, t->rdev, names, sizeof(names));
		if (names[0])
			snprintf(q->holder, sizeof(q->holder), "held by %s", names);
		else
			snprintf(q->holder, sizeof(q->holder), "%s", HOLDER_UNNAMED);
		return 1;
	}
	return target_errf(q->err, sizeof(q->err), ret,
			   "lun=%s: cannot check whether it is in use: %s", t->path,
			   strerror(-ret));
}

int eng_target_find_holder(const struct eng_target *t, char *holder, size_t holderlen, char *err,
			   size_t errlen)
{
	struct eng_holder_query q = {
		.sysfs = "/sys",
		.mountinfo = "/proc/self/mountinfo",
		.swaps = "/proc/swaps",
	};
	int ret = eng_target_find_holder_in(t, &q);

	if (ret > 0)
		snprintf(holder, holderlen, "%s", q.holder);
	else if (ret < 0)
		snprintf(err, errlen, "%s", q.err);
	return ret;
}
