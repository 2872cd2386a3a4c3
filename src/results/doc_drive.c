/* What each SD's lun is, for the set-up a page states: a block device's model, serial or
 * WWID, firmware revision, block sizes and whether it spins, from sysfs; a file's file system,
 * mount point and the block device beneath it (with that device's signature); for modelled
 * drives the model, marked as one. Whatever sysfs does not say is null. */
#include "parts.h"

#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <unistd.h>

/* The first line of sysfs file dir/name without its trailing spaces, or null. */
static json_t *sys_text(const char *dir, const char *name)
{
	char path[512], line[256];
	FILE *f;
	size_t n;

	snprintf(path, sizeof(path), "%s/%s", dir, name);
	f = fopen(path, "r");
	if (!f)
		return json_null();
	if (!fgets(line, sizeof(line), f))
		line[0] = '\0';
	fclose(f);
	n = strcspn(line, "\n");
	while (n && (line[n - 1] == ' ' || line[n - 1] == '\t'))
		n--;
	line[n] = '\0';
	return n ? rep_json_text(line) : json_null();
}

/* A SCSI unit serial number page (VPD 0x80: 4 header bytes, the length in bytes 2-3, then
 * the serial in ASCII) as text without its blanks, or null. */
static json_t *sys_vpd_serial(const char *dir)
{
	unsigned char b[260];
	char path[600];
	size_t n, lo, hi;
	FILE *f;

	snprintf(path, sizeof(path), "%s/device/vpd_pg80", dir);
	f = fopen(path, "rb");
	if (!f)
		return json_null();
	n = fread(b, 1, sizeof(b), f);
	fclose(f);
	if (n < 5 || b[1] != 0x80)
		return json_null();
	hi = 4 + ((size_t)b[2] << 8 | b[3]);
	hi = hi < n ? hi : n;
	for (lo = 4; lo < hi && b[lo] == ' '; lo++)
		;
	while (hi > lo && (b[hi - 1] == ' ' || b[hi - 1] == '\0'))
		hi--;
	return hi > lo ? rep_json_textn((const char *)b + lo, hi - lo) : json_null();
}

/* The first of the names under dir that has text, or null. */
static json_t *sys_first(const char *dir, const char *const *names)
{
	for (; *names; names++) {
		json_t *v = sys_text(dir, *names);

		if (!json_is_null(v))
			return v;
		json_decref(v);
	}
	return json_null();
}

/* A number in sysfs file dir/name, or null. */
static json_t *sys_int(const char *dir, const char *name)
{
	json_t *t = sys_text(dir, name);
	const char *s = json_string_value(t);
	char *end;
	long long v = s ? strtoll(s, &end, 10) : 0;
	json_t *out = s && end != s && !*end ? json_integer(v) : json_null();

	json_decref(t);
	return out;
}

static json_t *sys_bool(const char *dir, const char *name)
{
	json_t *v = sys_int(dir, name);
	json_t *out = json_is_integer(v) ? json_boolean(json_integer_value(v) != 0) : json_null();

	json_decref(v);
	return out;
}

/* The signature of block device dev: /sys/dev/block/MAJ:MIN, its disk for a partition. */
static json_t *block_signature(dev_t dev)
{
	static const char *const serials[] = { "device/serial", "serial", NULL };
	static const char *const wwids[] = { "wwid", "device/wwid", NULL };
	static const char *const revs[] = { "device/firmware_rev", "device/rev", NULL };
	char link[600], path[512], disk[512];
	json_t *serial;
	char *name;
	struct stat st;

	snprintf(link, sizeof(link), "/sys/dev/block/%u:%u", major(dev), minor(dev));
	if (!realpath(link, path))
		return json_null();
	snprintf(disk, sizeof(disk), "%s", path);
	snprintf(link, sizeof(link), "%s/partition", path);
	if (!stat(link, &st)) /* a partition: the drive's files are its parent's */
		*strrchr(disk, '/') = '\0';
	name = strrchr(path, '/') + 1;
	serial = sys_first(disk, serials);
	if (json_is_null(serial)) { /* SCSI: in the VPD page */
		json_decref(serial);
		serial = sys_vpd_serial(disk);
	}
	return json_pack("{s:o,s:o,s:o,s:o,s:o,s:o,s:o,s:o,s:o,s:o,s:o}", "device",
			 rep_json_text(name), "disk", rep_json_text(strrchr(disk, '/') + 1),
			 "vendor", sys_text(disk, "device/vendor"), "model",
			 sys_text(disk, "device/model"), "serial", serial, "wwid",
			 sys_first(disk, wwids), "firmware_rev", sys_first(disk, revs),
			 "logical_block_bytes", sys_int(disk, "queue/logical_block_size"),
			 "physical_block_bytes", sys_int(disk, "queue/physical_block_size"),
			 "is_rotational", sys_bool(disk, "queue/rotational"), "backing_file",
			 sys_text(path, "loop/backing_file"));
}

/* The mount of file path (st_dev dev) in /proc/self/mountinfo: the longest mount point of
 * that device the path lies under. Fills fs and source ("" when not found), returns point. */
static json_t *mount_of(const char *path, dev_t dev, char *fs, char *source, size_t len)
{
	FILE *f = fopen("/proc/self/mountinfo", "r");
	char line[4096], best[1024] = "", want[32];
	size_t best_len = 0;

	fs[0] = source[0] = '\0';
	snprintf(want, sizeof(want), "%u:%u", major(dev), minor(dev));
	while (f && fgets(line, sizeof(line), f)) {
		char mdev[32], point[1024], type[64], src[128];
		const char *sep = strstr(line, " - ");
		size_t n;

		if (!sep || sscanf(line, "%*s %*s %31s %*s %1023s", mdev, point) != 2 ||
		    sscanf(sep + 3, "%63s %127s", type, src) != 2 || strcmp(mdev, want))
			continue;
		n = strlen(point);
		if (strncmp(path, point, n) || (n > 1 && path[n] && path[n] != '/') ||
		    (best[0] && n <= best_len))
			continue;
		snprintf(best, sizeof(best), "%s", point);
		best_len = n;
		snprintf(fs, len, "%s", type);
		snprintf(source, len, "%s", src);
	}
	if (f)
		fclose(f);
	return best[0] ? rep_json_text(best) : json_null();
}

static json_t *file_signature(const char *lun, const struct stat *st)
{
	char *real = realpath(lun, NULL);
	char fs[128], source[128];
	json_t *point = mount_of(real ? real : lun, st->st_dev, fs, source, sizeof(fs));

	free(real);
	return json_pack("{s:s,s:b,s:o,s:o,s:o,s:o}", "kind", "file", "is_modelled", 0, "fs_type",
			 fs[0] ? rep_json_text(fs) : json_null(), "mount_point", point,
			 "mount_source", source[0] ? rep_json_text(source) : json_null(), "backing",
			 block_signature(st->st_dev));
}

json_t *rep_doc_drive(const char *lun, const struct rep_model *m)
{
	struct stat st;
	json_t *sig;

	if (m)
		return json_pack("{s:s,s:b,s:o,s:o,s:o,s:I,s:o,s:o,s:o,s:o,s:o}", "kind",
				 "modelled", "is_modelled", 1, "spec", rep_json_text(m->spec),
				 "preset", rep_json_text(m->preset), "source",
				 m->source ? rep_json_text(m->source) : json_null(), "units",
				 (json_int_t)m->units, "read_us", rep_doc_real(m->read_us),
				 "write_us", rep_doc_real(m->write_us), "read_mbps",
				 rep_doc_real(m->read_mbps), "write_mbps",
				 rep_doc_real(m->write_mbps), "cache_mb",
				 rep_doc_real(m->cache_mb));
	if (!lun || stat(lun, &st))
		return json_pack("{s:s,s:b}", "kind", "unknown", "is_modelled", 0);
	if (!S_ISBLK(st.st_mode))
		return file_signature(lun, &st);
	sig = block_signature(st.st_rdev);
	if (!json_is_object(sig)) { /* no sysfs: only its name */
		const char *base = strrchr(lun, '/') ? strrchr(lun, '/') + 1 : lun;

		json_decref(sig);
		return json_pack("{s:s,s:b,s:o,s:o}", "kind", "block", "is_modelled", 0, "device",
				 rep_json_text(base), "disk", rep_json_text(base));
	}
	json_object_set_new(sig, "kind", json_string("block"));
	json_object_set_new(sig, "is_modelled", json_false());
	return sig;
}

void rep_doc_run_drives(const struct rep_model *m, json_t *run)
{
	json_t *sd;
	size_t i;

	json_array_foreach (json_object_get(run, "sds"), i, sd)
		json_object_set_new(sd, "drive", rep_doc_drive(rep_doc_str(sd, "lun", NULL), m));
}
