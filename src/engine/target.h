/* Opening an SD's target (block device, regular file or character device) with its open flags,
 * and the facts the engine needs before a run: size, logical block size, whether a device
 * carries a file-system or partition-table signature, whether it is mounted. Never prints:
 * functions return -errno and fill err with "lun=<path>: what went wrong". */
#ifndef IORAMP_ENGINE_TARGET_H
#define IORAMP_ENGINE_TARGET_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

enum eng_target_kind {
	ENG_TARGET_FILE,
	ENG_TARGET_BLOCK,
	ENG_TARGET_CHAR, /* /dev/zero and the like: no size, needs size= */
};

/* An open target. ENG_TARGET_INIT needs no call and eng_target_close() restores it. */
struct eng_target {
	char *path; /* a copy of the lun= text */
	int fd;	    /* -1 when closed */
	enum eng_target_kind kind;
	bool is_direct;	  /* opened with O_DIRECT */
	bool is_writable; /* opened O_RDWR */
	bool is_excl;	  /* a block device opened O_EXCL: no mount or other exclusive user */
	uint64_t rdev;	  /* device number of a block or character device, else 0 */
	/* Offsets and sizes must be multiples of this: the device's logical block size; for a file
	 * with O_DIRECT the file system's direct I/O alignment where it tells (statx), else 512. */
	uint32_t block_bytes;
	uint32_t mem_align_bytes; /* buffer address alignment O_DIRECT needs (4096 always works) */
	uint64_t size_bytes;	  /* device or file size; 0 for a character device */
};

#define ENG_TARGET_INIT  \
	{                \
		.fd = -1 \
	}

/*
 * Opens path into *t (which it initialises). flags: O_RDONLY or O_RDWR (O_RDWR only when a
 * workload writes), optionally with O_DIRECT, O_DSYNC or O_SYNC; other bits are ignored.
 * Refuses anything but a regular file, block or character device (-EINVAL), and reports a
 * file system that refuses O_DIRECT as such (-EINVAL). A block device opened O_RDWR is opened
 * O_EXCL too, so that the kernel refuses mounts and other exclusive users until it is closed;
 * one already held so gives -EBUSY naming its holder where one is known. Returns 0, or -errno
 * with err filled and *t closed. The caller releases with eng_target_close().
 */
int eng_target_open(struct eng_target *t, const char *path, int flags, char *err, size_t errlen);

/* Closes the fd and frees the path; accepts an initialised or closed target. */
void eng_target_close(struct eng_target *t);

/* A buffered regular file whose pages are (nearly) all in the page cache (mincore; a large
 * file's sampled): its I/O does not wait on the device (cached.c). */
bool eng_target_is_cached(const struct eng_target *t);

/*
 * Looks for a file-system, RAID, LVM, swap or partition-table signature with libblkid (works
 * on files too). Returns 1 with sig naming it ("ext4", "gpt partition table", "ambiguous
 * signatures"), 0 when there is none, or -errno with err filled.
 */
int eng_target_probe_signature(const struct eng_target *t, char *sig, size_t siglen, char *err,
			       size_t errlen);

/*
 * Whether a block device is in use: mounted or swap (matched by device number in
 * /proc/self/mountinfo and /proc/swaps), one of its partitions mounted or swap, or a device
 * stacked on it (dm, md: sysfs holders/, recursively) mounted or swap; else held exclusively
 * by the kernel (an unmounted dm or md on it, a mount in another namespace: an O_EXCL open
 * then fails with EBUSY). Returns 1 with holder filled ("mounted on /mnt", "partition /dev/loop0p1,
 * mounted on /mnt", "held by /dev/dm-0, mounted on /data", "held by md0"), 0 when free or not a
 * block device, or -errno with err filled.
 */
int eng_target_find_holder(const struct eng_target *t, char *holder, size_t holderlen, char *err,
			   size_t errlen);

/* Where eng_target_find_holder_in() looks (tests build a fake tree), and what it found. */
struct eng_holder_query {
	const char *sysfs;     /* "/sys" */
	const char *mountinfo; /* "/proc/self/mountinfo" */
	const char *swaps;     /* "/proc/swaps" */
	char holder[512];      /* out: as eng_target_find_holder() fills holder */
	char err[512];	       /* out: as eng_target_find_holder() fills err */
};

/* eng_target_find_holder() reading q's paths, with the answer in q->holder or q->err. */
int eng_target_find_holder_in(const struct eng_target *t, struct eng_holder_query *q);

#endif /* IORAMP_ENGINE_TARGET_H */
