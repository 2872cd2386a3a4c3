/* Unit tests of opening SD targets: regular files in $TMPDIR, character devices, and, when
 * running as root with losetup working, a loop device (always detached afterwards). Tests
 * that need mkfs.ext4, losetup or mount skip visibly without them. */
#include <setjmp.h> /* cmocka needs these four first */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include <errno.h>
#include <fcntl.h>
#include <mntent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <unistd.h>

#include "../../src/engine/target.h"

#define LOOP_BYTES (8u << 20)

struct tfx {
	char dir[512];	/* scratch directory */
	char file[600]; /* dir/img */
	char mnt[600];	/* dir/mnt */
	char loop[64];	/* /dev/loopN while attached */
	bool is_mounted;
	int excl_fd;
	struct eng_target t;
	char err[256];
	char what[256];
};

static int tfx_setup(void **state)
{
	struct tfx *fx = calloc(1, sizeof(*fx));
	const char *tmp = getenv("TMPDIR");

	if (!fx)
		return -1;
	snprintf(fx->dir, sizeof(fx->dir), "%s/ioramp-target.XXXXXX", tmp && *tmp ? tmp : "/tmp");
	if (!mkdtemp(fx->dir))
		return -1;
	snprintf(fx->file, sizeof(fx->file), "%s/img", fx->dir);
	snprintf(fx->mnt, sizeof(fx->mnt), "%s/mnt", fx->dir);
	fx->excl_fd = -1;
	fx->t = (struct eng_target)ENG_TARGET_INIT;
	*state = fx;
	return 0;
}

/* Undoes everything a test may have set up, whatever point it failed at. */
static int tfx_teardown(void **state)
{
	struct tfx *fx = *state;
	char cmd[2400];

	eng_target_close(&fx->t);
	if (fx->excl_fd >= 0)
		close(fx->excl_fd);
	if (fx->is_mounted) {
		snprintf(cmd, sizeof(cmd), "umount '%s'", fx->mnt);
		if (system(cmd) != 0)
			print_message("# warning: could not unmount %s\n", fx->mnt);
	}
	if (fx->loop[0]) {
		snprintf(cmd, sizeof(cmd), "losetup -d '%s'", fx->loop);
		if (system(cmd) != 0)
			print_message("# warning: could not detach %s\n", fx->loop);
	}
	rmdir(fx->mnt);
	unlink(fx->file);
	snprintf(cmd, sizeof(cmd), "rm -rf '%s/sys' '%s/mountinfo' '%s/swaps' '%s/md0'", fx->dir,
		 fx->dir, fx->dir, fx->dir);
	if (strstr(fx->dir, "ioramp-target.") && system(cmd) != 0)
		print_message("# warning: could not remove %s\n", fx->dir);
	rmdir(fx->dir);
	free(fx);
	return 0;
}

static void make_file(const char *path, uint64_t size)
{
	int fd = open(path, O_RDWR | O_CREAT | O_TRUNC | O_CLOEXEC, 0600);

	assert_true(fd >= 0);
	assert_int_equal(ftruncate(fd, (off_t)size), 0);
	close(fd);
}

/* Runs a shell command quietly; true when it exits 0. */
static bool run_quiet(const char *fmt, const char *arg)
{
	char cmd[1024];

	snprintf(cmd, sizeof(cmd), fmt, arg);
	return system(cmd) == 0;
}

/* Formats fx->file as ext4, or skips when mkfs.ext4 is not here. */
static void mkfs_ext4(struct tfx *fx)
{
	if (!run_quiet("mkfs.ext4 -q -F '%s' >/dev/null 2>&1", fx->file)) {
		print_message("# skip: mkfs.ext4 is not available\n");
		skip();
	}
}

static void test_target_open_regular_file(void **state)
{
	struct tfx *fx = *state;

	make_file(fx->file, 12345);
	assert_int_equal(eng_target_open(&fx->t, fx->file, O_RDWR, fx->err, sizeof(fx->err)), 0);
	assert_true(fx->t.fd >= 0);
	assert_string_equal(fx->t.path, fx->file);
	assert_int_equal(fx->t.kind, ENG_TARGET_FILE);
	assert_int_equal(fx->t.size_bytes, 12345);
	assert_int_equal(fx->t.block_bytes, 512);
	assert_true(fx->t.is_writable);
	assert_false(fx->t.is_direct);
	assert_int_equal(pwrite(fx->t.fd, "x", 1, 0), 1);
	eng_target_close(&fx->t);
	assert_int_equal(fx->t.fd, -1);
	assert_null(fx->t.path);
	eng_target_close(&fx->t); /* closing twice is harmless */
}

static void test_target_open_readonly_refuses_writes(void **state)
{
	struct tfx *fx = *state;

	make_file(fx->file, 4096);
	assert_int_equal(eng_target_open(&fx->t, fx->file, O_RDONLY, fx->err, sizeof(fx->err)), 0);
	assert_false(fx->t.is_writable);
	assert_int_equal(pwrite(fx->t.fd, "x", 1, 0), -1);
	assert_int_equal(errno, EBADF);
}

static void test_target_open_missing_path(void **state)
{
	struct tfx *fx = *state;
	char want[700];

	snprintf(want, sizeof(want), "lun=%s: cannot open: No such file or directory", fx->file);
	assert_int_equal(eng_target_open(&fx->t, fx->file, O_RDONLY, fx->err, sizeof(fx->err)),
			 -ENOENT);
	assert_string_equal(fx->err, want);
	assert_int_equal(fx->t.fd, -1);
	assert_null(fx->t.path);
}

static void test_target_open_directory_refused(void **state)
{
	struct tfx *fx = *state;
	char want[700];

	snprintf(want, sizeof(want), "lun=%s: not a block device, character device or regular file",
		 fx->dir);
	assert_int_equal(eng_target_open(&fx->t, fx->dir, O_RDONLY, fx->err, sizeof(fx->err)),
			 -EINVAL);
	assert_string_equal(fx->err, want);
}

/* procfs files are regular files whose file system has no direct I/O. */
static void test_target_open_direct_refused(void **state)
{
	struct tfx *fx = *state;
	int ret = eng_target_open(&fx->t, "/proc/self/status", O_RDONLY | O_DIRECT, fx->err,
				  sizeof(fx->err));

	if (ret == 0) {
		print_message("# skip: this kernel allows O_DIRECT on procfs\n");
		skip();
	}
	assert_int_equal(ret, -EINVAL);
	assert_string_equal(fx->err, "lun=/proc/self/status: cannot open with o_direct: the file "
				     "system does not support direct I/O");
}

static void test_target_open_direct_file(void **state)
{
	struct tfx *fx = *state;
	int ret;

	make_file(fx->file, 1 << 20);
	ret = eng_target_open(&fx->t, fx->file, O_RDWR | O_DIRECT | O_DSYNC, fx->err,
			      sizeof(fx->err));
	if (ret == -EINVAL) {
		print_message("# skip: %s\n", fx->err);
		skip();
	}
	assert_int_equal(ret, 0);
	assert_true(fx->t.is_direct);
	assert_true(fcntl(fx->t.fd, F_GETFL) & O_DIRECT);
	assert_true(fx->t.block_bytes >= 512);
	assert_int_equal(fx->t.block_bytes & (fx->t.block_bytes - 1), 0);
	assert_true(fx->t.mem_align_bytes > 0);
	assert_int_equal(fx->t.size_bytes, 1 << 20);
}

static void test_target_open_char_device(void **state)
{
	struct tfx *fx = *state;

	assert_int_equal(eng_target_open(&fx->t, "/dev/zero", O_RDONLY, fx->err, sizeof(fx->err)),
			 0);
	assert_int_equal(fx->t.kind, ENG_TARGET_CHAR);
	assert_int_equal(fx->t.size_bytes, 0);
	assert_true(fx->t.rdev != 0);
}

static void test_target_signature_none(void **state)
{
	struct tfx *fx = *state;

	make_file(fx->file, 1 << 20);
	assert_int_equal(eng_target_open(&fx->t, fx->file, O_RDONLY, fx->err, sizeof(fx->err)), 0);
	assert_int_equal(eng_target_probe_signature(&fx->t, fx->what, sizeof(fx->what), fx->err,
						    sizeof(fx->err)),
			 0);
}

static void test_target_signature_ext4(void **state)
{
	struct tfx *fx = *state;

	make_file(fx->file, LOOP_BYTES);
	mkfs_ext4(fx);
	assert_int_equal(eng_target_open(&fx->t, fx->file, O_RDONLY, fx->err, sizeof(fx->err)), 0);
	assert_int_equal(eng_target_probe_signature(&fx->t, fx->what, sizeof(fx->what), fx->err,
						    sizeof(fx->err)),
			 1);
	assert_string_equal(fx->what, "ext4");
}

/* Writes a DOS partition table with one Linux partition from sector 2048 to the end. */
static void write_mbr(const char *path, uint64_t size)
{
	uint8_t mbr[512] = { 0 };
	uint32_t start = 2048, nr = (uint32_t)(size / 512) - start;
	uint8_t *e = mbr + 446; /* the first of four 16-byte entries */
	int fd = open(path, O_WRONLY | O_CLOEXEC);

	assert_true(fd >= 0);
	e[4] = 0x83; /* Linux */
	for (int i = 0; i < 4; i++) {
		e[8 + i] = (uint8_t)(start >> (8 * i));
		e[12 + i] = (uint8_t)(nr >> (8 * i));
	}
	mbr[510] = 0x55;
	mbr[511] = 0xaa;
	assert_int_equal(pwrite(fd, mbr, sizeof(mbr), 0), sizeof(mbr));
	close(fd);
}

static void test_target_signature_partition_table(void **state)
{
	struct tfx *fx = *state;

	make_file(fx->file, LOOP_BYTES);
	write_mbr(fx->file, LOOP_BYTES);
	assert_int_equal(eng_target_open(&fx->t, fx->file, O_RDONLY, fx->err, sizeof(fx->err)), 0);
	assert_int_equal(eng_target_probe_signature(&fx->t, fx->what, sizeof(fx->what), fx->err,
						    sizeof(fx->err)),
			 1);
	assert_string_equal(fx->what, "dos partition table");
}

static void test_target_holder_none_for_file(void **state)
{
	struct tfx *fx = *state;

	make_file(fx->file, 4096);
	assert_int_equal(eng_target_open(&fx->t, fx->file, O_RDONLY, fx->err, sizeof(fx->err)), 0);
	assert_int_equal(eng_target_find_holder(&fx->t, fx->what, sizeof(fx->what), fx->err,
						sizeof(fx->err)),
			 0);
}

/* The first mounted block device in the mount table, opened read-only, is found mounted. */
static void test_target_holder_finds_mounted_device(void **state)
{
	struct tfx *fx = *state;
	struct mntent *ent;
	FILE *f = setmntent("/proc/self/mounts", "re");
	char dev[512] = "";

	assert_non_null(f);
	while ((ent = getmntent(f)) != NULL) {
		struct stat st;

		if (ent->mnt_fsname[0] == '/' && stat(ent->mnt_fsname, &st) == 0 &&
		    S_ISBLK(st.st_mode)) {
			snprintf(dev, sizeof(dev), "%s", ent->mnt_fsname);
			break;
		}
	}
	endmntent(f);
	if (!dev[0] || eng_target_open(&fx->t, dev, O_RDONLY, fx->err, sizeof(fx->err)) < 0) {
		print_message("# skip: no mounted block device can be opened here\n");
		skip();
	}
	assert_int_equal(fx->t.kind, ENG_TARGET_BLOCK);
	assert_int_equal(eng_target_find_holder(&fx->t, fx->what, sizeof(fx->what), fx->err,
						sizeof(fx->err)),
			 1);
	assert_int_equal(strncmp(fx->what, "mounted on /", 12), 0);
}

/* Attaches fx->file to a free loop device, or skips. */
static void loop_attach(struct tfx *fx)
{
	char cmd[800];
	FILE *p;

	if (geteuid() != 0) {
		print_message("# skip: loop devices need root\n");
		skip();
	}
	snprintf(cmd, sizeof(cmd), "losetup -f --show '%s' 2>/dev/null", fx->file);
	p = popen(cmd, "re");
	if (p && fgets(fx->loop, sizeof(fx->loop), p))
		fx->loop[strcspn(fx->loop, "\n")] = '\0';
	if (p && pclose(p) != 0)
		fx->loop[0] = '\0';
	if (strncmp(fx->loop, "/dev/", 5) != 0) {
		fx->loop[0] = '\0';
		print_message("# skip: losetup does not work here\n");
		skip();
	}
}

static void test_target_loop_device(void **state)
{
	struct tfx *fx = *state;

	make_file(fx->file, LOOP_BYTES);
	mkfs_ext4(fx);
	loop_attach(fx);
	assert_int_equal(
		eng_target_open(&fx->t, fx->loop, O_RDWR | O_DIRECT, fx->err, sizeof(fx->err)), 0);
	assert_int_equal(fx->t.kind, ENG_TARGET_BLOCK);
	assert_true(fx->t.is_direct);
	assert_int_equal(fx->t.size_bytes, LOOP_BYTES);
	assert_int_equal(fx->t.block_bytes, 512);
	assert_true(fx->t.rdev != 0);
	assert_int_equal(eng_target_probe_signature(&fx->t, fx->what, sizeof(fx->what), fx->err,
						    sizeof(fx->err)),
			 1);
	assert_string_equal(fx->what, "ext4");
	assert_int_equal(eng_target_find_holder(&fx->t, fx->what, sizeof(fx->what), fx->err,
						sizeof(fx->err)),
			 0);

	/* opened for writing, it is held exclusively: no mount, md, dm or second writer */
	assert_true(fx->t.is_excl);
	assert_int_equal(open(fx->loop, O_RDONLY | O_EXCL | O_CLOEXEC), -1);
	assert_int_equal(errno, EBUSY);
	{
		struct eng_target t2;
		char want[700];

		assert_int_equal(eng_target_open(&t2, fx->loop, O_RDWR, fx->err, sizeof(fx->err)),
				 -EBUSY);
		snprintf(want, sizeof(want),
			 "lun=%s is in use (held exclusively by a file system, swap, md, "
			 "device mapper or another program); ioramp never writes to a mounted or held device",
			 fx->loop);
		assert_string_equal(fx->err, want);
		assert_int_equal(eng_target_open(&t2, fx->loop, O_RDONLY, fx->err, sizeof(fx->err)),
				 0); /* a reader is not refused */
		assert_false(t2.is_excl);
		eng_target_close(&t2);
	}
	eng_target_close(&fx->t);
	assert_int_equal(eng_target_open(&fx->t, fx->loop, O_RDONLY, fx->err, sizeof(fx->err)), 0);

	/* another exclusive holder (as md, dm or a mount would be) */
	fx->excl_fd = open(fx->loop, O_RDONLY | O_EXCL | O_CLOEXEC);
	assert_true(fx->excl_fd >= 0);
	assert_int_equal(eng_target_find_holder(&fx->t, fx->what, sizeof(fx->what), fx->err,
						sizeof(fx->err)),
			 1);
	assert_string_equal(fx->what, "held exclusively by a file system, swap, md, device mapper or "
				      "another program");
}

static void test_target_loop_device_mounted(void **state)
{
	struct tfx *fx = *state;
	char want[700], cmd[1400];

	make_file(fx->file, LOOP_BYTES);
	mkfs_ext4(fx);
	loop_attach(fx);
	assert_int_equal(mkdir(fx->mnt, 0700), 0);
	snprintf(cmd, sizeof(cmd), "mount -t ext4 '%s' '%s' >/dev/null 2>&1", fx->loop, fx->mnt);
	fx->is_mounted = system(cmd) == 0;
	if (!fx->is_mounted) {
		print_message("# skip: mount does not work here\n");
		skip();
	}
	assert_int_equal(eng_target_open(&fx->t, fx->loop, O_RDONLY, fx->err, sizeof(fx->err)), 0);
	snprintf(want, sizeof(want), "mounted on %s", fx->mnt);
	assert_int_equal(eng_target_find_holder(&fx->t, fx->what, sizeof(fx->what), fx->err,
						sizeof(fx->err)),
			 1);
	assert_string_equal(fx->what, want);
}

/* ---- holders in a fake sysfs -------------------------------------------------------------- */

/* Writes text to dir/rel, creating the directories on the way. */
static void fake_file(const char *dir, const char *rel, const char *text)
{
	char path[1200], cmd[1400];
	FILE *f;

	snprintf(path, sizeof(path), "%s/%s", dir, rel);
	snprintf(cmd, sizeof(cmd), "mkdir -p \"$(dirname '%s')\"", path);
	assert_int_equal(system(cmd), 0);
	f = fopen(path, "we");
	assert_non_null(f);
	fputs(text, f);
	fclose(f);
}

/* dir/sys/dev/block/MAJ:MIN with its dev file and an empty holders/. */
static void fake_dev(const char *dir, const char *devno)
{
	char rel[200], text[64];

	snprintf(rel, sizeof(rel), "sys/dev/block/%s/dev", devno);
	snprintf(text, sizeof(text), "%s\n", devno);
	fake_file(dir, rel, text);
	snprintf(rel, sizeof(rel), "sys/dev/block/%s/holders/.keep", devno);
	fake_file(dir, rel, "");
}

/* holder (MAJ:MIN) is stacked on devno under the name name (a holders/ symlink). */
static void fake_holder(const char *dir, const char *devno, const char *name, const char *holder)
{
	char link[1200], target[200];

	fake_dev(dir, holder);
	snprintf(link, sizeof(link), "%s/sys/dev/block/%s/holders/%s", dir, devno, name);
	snprintf(target, sizeof(target), "../../%s", holder);
	assert_int_equal(symlink(target, link), 0);
}

/* A block target 7:8 in a fake tree: a disk with partition loop8p1 (259:0). */
static void fake_disk(struct tfx *fx)
{
	make_file(fx->file, 4096);
	fake_dev(fx->dir, "7:8");
	fake_file(fx->dir, "sys/dev/block/7:8/loop8p1/partition", "1\n");
	fake_file(fx->dir, "sys/dev/block/7:8/loop8p1/dev", "259:0\n");
	fake_dev(fx->dir, "259:0");
	fake_file(fx->dir, "swaps", "Filename\tType\tSize\tUsed\tPriority\n");
	fx->t.path = strdup(fx->file); /* O_EXCL on a regular file: never busy */
	fx->t.kind = ENG_TARGET_BLOCK;
	fx->t.rdev = makedev(7, 8);
}

static int fake_find(struct tfx *fx)
{
	char sys[600], mi[600], sw[600];
	struct eng_holder_query q = { .sysfs = sys, .mountinfo = mi, .swaps = sw };
	int ret;

	snprintf(sys, sizeof(sys), "%s/sys", fx->dir);
	snprintf(mi, sizeof(mi), "%s/mountinfo", fx->dir);
	snprintf(sw, sizeof(sw), "%s/swaps", fx->dir);
	ret = eng_target_find_holder_in(&fx->t, &q);
	snprintf(fx->what, sizeof(fx->what), "%.255s", q.holder);
	snprintf(fx->err, sizeof(fx->err), "%.255s", q.err);
	return ret;
}

static void test_target_holder_walk_nothing_mounted(void **state)
{
	struct tfx *fx = *state;

	fake_disk(fx);
	fake_holder(fx->dir, "259:0", "dm-0", "253:0");
	fake_file(fx->dir, "mountinfo", "22 1 8:1 / / rw - ext4 /dev/sda1 rw\n");
	assert_int_equal(fake_find(fx), 0);
}

static void test_target_holder_walk_device_mounted(void **state)
{
	struct tfx *fx = *state;

	fake_disk(fx);
	fake_file(fx->dir, "mountinfo",
		  "22 1 8:1 / / rw - ext4 /dev/sda1 rw\n"
		  "36 22 7:8 / /mnt/x rw shared:1 - ext4 /dev/loop8 rw\n");
	assert_int_equal(fake_find(fx), 1);
	assert_string_equal(fx->what, "mounted on /mnt/x");
}

/* A mounted partition is named with its mount point (blanks unescaped). */
static void test_target_holder_walk_partition_mounted(void **state)
{
	struct tfx *fx = *state;

	fake_disk(fx);
	fake_file(fx->dir, "mountinfo",
		  "22 1 8:1 / / rw - ext4 /dev/sda1 rw\n"
		  "36 22 259:0 / /mnt/a\\040b rw,relatime shared:1 - ext4 /dev/loop8p1 rw\n");
	assert_int_equal(fake_find(fx), 1);
	assert_string_equal(fx->what, "partition /dev/loop8p1, mounted on /mnt/a b");
}

/* Device mapper on the partition, another dm on that one, mounted: found two levels up. */
static void test_target_holder_walk_stacked_dm_mounted(void **state)
{
	struct tfx *fx = *state;

	fake_disk(fx);
	fake_holder(fx->dir, "259:0", "dm-0", "253:0");
	fake_holder(fx->dir, "253:0", "dm-1", "253:1");
	fake_file(fx->dir, "mountinfo", "36 22 253:1 / /data rw - xfs /dev/mapper/vg-lv rw\n");
	assert_int_equal(fake_find(fx), 1);
	assert_string_equal(fx->what, "held by /dev/dm-1, mounted on /data");
}

/* md straight on the disk, used as swap (matched by the device number of the swap node). */
static void test_target_holder_walk_md_swap(void **state)
{
	struct tfx *fx = *state;
	char node[600], swaps[800];

	fake_disk(fx);
	fake_holder(fx->dir, "7:8", "md0", "9:0");
	fake_file(fx->dir, "mountinfo", "22 1 8:1 / / rw - ext4 /dev/sda1 rw\n");
	snprintf(node, sizeof(node), "%s/md0", fx->dir);
	if (mknod(node, S_IFBLK | 0600, makedev(9, 0))) {
		print_message("# skip: cannot make a device node here\n");
		skip();
	}
	snprintf(swaps, sizeof(swaps),
		 "Filename\tType\tSize\tUsed\tPriority\n%s partition 1024 0 -2\n", node);
	fake_file(fx->dir, "swaps", swaps);
	assert_int_equal(fake_find(fx), 1);
	unlink(node);
	assert_string_equal(fx->what, "held by /dev/md0, used as swap");
}

/* A holder cycle (impossible in a real sysfs) ends at the depth limit instead of looping. */
static void test_target_holder_walk_cycle_ends(void **state)
{
	struct tfx *fx = *state;
	char link[800];

	fake_disk(fx);
	snprintf(link, sizeof(link), "%s/sys/dev/block/7:8/holders/self", fx->dir);
	assert_int_equal(symlink("../../7:8", link), 0);
	fake_file(fx->dir, "mountinfo", "22 1 8:1 / / rw - ext4 /dev/sda1 rw\n");
	assert_int_equal(fake_find(fx), 0);
}

static void test_target_holder_walk_no_mount_table(void **state)
{
	struct tfx *fx = *state;

	fake_disk(fx);
	assert_int_equal(fake_find(fx), -ENOENT);
	assert_true(strstr(fx->err, ": cannot read the mount table: No such file or directory"));
}

#define TARGET_TEST(f) cmocka_unit_test_setup_teardown(f, tfx_setup, tfx_teardown)

int main(void)
{
	const struct CMUnitTest tests[] = {
		TARGET_TEST(test_target_holder_walk_nothing_mounted),
		TARGET_TEST(test_target_holder_walk_device_mounted),
		TARGET_TEST(test_target_holder_walk_partition_mounted),
		TARGET_TEST(test_target_holder_walk_stacked_dm_mounted),
		TARGET_TEST(test_target_holder_walk_md_swap),
		TARGET_TEST(test_target_holder_walk_cycle_ends),
		TARGET_TEST(test_target_holder_walk_no_mount_table),
		TARGET_TEST(test_target_open_regular_file),
		TARGET_TEST(test_target_open_readonly_refuses_writes),
		TARGET_TEST(test_target_open_missing_path),
		TARGET_TEST(test_target_open_directory_refused),
		TARGET_TEST(test_target_open_direct_refused),
		TARGET_TEST(test_target_open_direct_file),
		TARGET_TEST(test_target_open_char_device),
		TARGET_TEST(test_target_signature_none),
		TARGET_TEST(test_target_signature_ext4),
		TARGET_TEST(test_target_signature_partition_table),
		TARGET_TEST(test_target_holder_none_for_file),
		TARGET_TEST(test_target_holder_finds_mounted_device),
		TARGET_TEST(test_target_loop_device),
		TARGET_TEST(test_target_loop_device_mounted),
	};

	return cmocka_run_group_tests_name("engine_target", tests, NULL, NULL);
}
