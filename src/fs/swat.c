/* swat_mon.bin of a file-system run: the figures VDbench 5.04.07 leaves for its Swat tool
 * (observed). Not Java serialization but Swat's own record format, big-endian: each record is
 * 0xEEEE, a type byte, a version byte, its length in 8-byte words (these 8 bytes included), then
 * its body padded with zeros to a whole word. A header (type 1, version 1: the start time in ms
 * twice, a zero long, the time zone's ID); a class record (0x2d: int 1,
 * "Utils.FwdNamedData/Vdbench") and the 34 column names (0x2e: their count, then each) before
 * the first interval; then per interval, never for the averages, the class record again and a
 * data record (0x2f: int 36, four zero bytes, 36 longs: the interval's end in ms, its length in
 * microseconds, then each column times 1,000,000, truncated: operations per second, mean
 * response time in ms, MB (2^20 bytes) per second, the transfer size in bytes). Strings are a
 * 16-bit length and UTF-16 units. The figures are the interval lines' (summary.html). */
#include "fs_int.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/time.h>
#include <unistd.h>

enum {
	SWAT_REC_MAX = 2048,
	SWAT_HEADER = 0x01,
	SWAT_CLASS = 0x2d,
	SWAT_NAMES = 0x2e,
	SWAT_DATA = 0x2f,
	SWAT_NR_COLS = 34,
};

/* A record's body being built. */
struct rec {
	uint8_t b[SWAT_REC_MAX];
	size_t len;
};

static void put(struct rec *r, uint64_t v, int bytes)
{
	for (int i = bytes - 1; i >= 0 && r->len < sizeof(r->b); i--)
		r->b[r->len++] = (uint8_t)(v >> (8 * i));
}

static void put_str(struct rec *r, const char *s)
{
	put(r, strlen(s), 2);
	for (; *s; s++)
		put(r, (uint8_t)*s, 2); /* ASCII: one UTF-16 unit each */
}

static void emit(FILE *f, int type, int version, const struct rec *r)
{
	static const uint8_t zeros[8];
	size_t words = (8 + r->len + 7) / 8;
	struct rec h = { .len = 0 };

	put(&h, 0xeeee, 2);
	put(&h, (uint64_t)type, 1);
	put(&h, (uint64_t)version, 1);
	put(&h, words, 4);
	fwrite(h.b, 1, h.len, f);
	fwrite(r->b, 1, r->len, f);
	fwrite(zeros, 1, words * 8 - 8 - r->len, f);
}

static uint64_t now_ms(void)
{
	struct timeval tv;

	gettimeofday(&tv, NULL);
	return (uint64_t)tv.tv_sec * 1000u + (uint64_t)tv.tv_usec / 1000u;
}

/* The time zone's ID as Java finds it: TZ, else the zone /etc/localtime links to, else UTC. */
static void zone_id(char *buf, size_t len)
{
	const char *tz = getenv("TZ");
	char link[512];
	ssize_t n;

	if (tz && *tz) {
		snprintf(buf, len, "%s", tz[0] == ':' ? tz + 1 : tz);
		return;
	}
	n = readlink("/etc/localtime", link, sizeof(link) - 1);
	link[n > 0 ? n : 0] = '\0';
	if (n > 0 && strstr(link, "zoneinfo/"))
		snprintf(buf, len, "%s", strstr(link, "zoneinfo/") + 9);
	else
		snprintf(buf, len, "UTC");
}

int fs_swat_open(struct fs_swat *s, const char *dir)
{
	char path[4200], zone[256];
	struct rec r = { .len = 0 };
	uint64_t ms = now_ms();
	FILE *f;

	memset(s, 0, sizeof(*s));
	snprintf(path, sizeof(path), "%s/swat_mon.bin", dir);
	f = fopen(path, "wb");
	if (!f)
		return -errno;
	s->f = f;
	zone_id(zone, sizeof(zone));
	put(&r, ms, 8);
	put(&r, ms, 8);
	put(&r, 0, 8);
	put_str(&r, zone);
	emit(f, SWAT_HEADER, 1, &r);
	fflush(f);
	return 0;
}

int fs_swat_close(struct fs_swat *s)
{
	int ret = 0;

	if (s->f && (ferror(s->f) | fclose(s->f)))
		ret = -EIO;
	s->f = NULL;
	return ret;
}

/* The columns' operations in Swat's order after the transfer figures; -1: one ioramp never
 * does (get, put: object stores). */
static const int op_cols[] = {
	FS_OP_MKDIR,  FS_OP_RMDIR,  FS_OP_CREATE,  FS_OP_OPEN,
	FS_OP_CLOSE,  FS_OP_DELETE, FS_OP_GETATTR, FS_OP_SETATTR,
	FS_OP_ACCESS, FS_OP_COPY,   FS_OP_MOVE,	   -1,
	-1,
};

static const char *const names[SWAT_NR_COLS] = {
	"Read_rate",	"Read_resp",	"Write_rate",	"Write_resp",	"MB_read",
	"MB_write",	"MB_total",	"Xfersize",	"Mkdir_rate",	"Mkdir_resp",
	"Rmdir_rate",	"Rmdir_resp",	"Create_rate",	"Create_resp",	"Open_rate",
	"Open_resp",	"Close_rate",	"Close_resp",	"Delete_rate",	"Delete_resp",
	"Getattr_rate", "Getattr_resp", "Setattr_rate", "Setattr_resp", "Access_rate",
	"Access_resp",	"Copy_rate",	"Copy_resp",	"Move_rate",	"Move_resp",
	"Get_rate",	"Get_resp",	"Put_rate",	"Put_resp",
};

/* x times 1,000,000, truncated as Java's (long) cast truncates. */
static void put_fig(struct rec *r, double x)
{
	put(r, (uint64_t)(int64_t)(x * 1e6), 8);
}

static void put_op(struct rec *r, const struct fs_opstat *o, double secs)
{
	put_fig(r, (double)o->n / secs);
	put_fig(r, o->n ? o->resp_sum_ms / (double)o->n : 0);
}

void fs_swat_interval(struct fs_swat *sw, const struct fs_run *r, const struct fs_stats *s,
		      double secs, uint64_t xfer_bytes)
{
	static const struct fs_opstat none;
	struct rec c = { .len = 0 }, d = { .len = 0 };
	const double mb = 1048576.0;
	FILE *f = sw->f;

	if (!f || !(secs > 0))
		return;
	put(&c, 1, 4);
	put_str(&c, "Utils.FwdNamedData/Vdbench");
	if (!sw->has_names) { /* first the class and its column names, once */
		struct rec n = { .len = 0 };

		sw->has_names = true;
		put(&n, SWAT_NR_COLS, 4);
		for (int i = 0; i < SWAT_NR_COLS; i++)
			put_str(&n, names[i]);
		emit(f, SWAT_CLASS, 0, &c);
		emit(f, SWAT_NAMES, 0, &n);
	}
	emit(f, SWAT_CLASS, 0, &c);
	put(&d, SWAT_NR_COLS + 2, 4);
	put(&d, 0, 4);
	put(&d, now_ms(), 8);
	put(&d, (uint64_t)r->interval_s * 1000000u, 8);
	put_op(&d, &s->op[FS_OP_READ], secs);
	put_op(&d, &s->op[FS_OP_WRITE], secs);
	put_fig(&d, (double)s->read_bytes / secs / mb);
	put_fig(&d, (double)s->write_bytes / secs / mb);
	put_fig(&d, (double)(s->read_bytes + s->write_bytes) / secs / mb);
	put_fig(&d, (double)xfer_bytes);
	for (size_t i = 0; i < sizeof(op_cols) / sizeof(op_cols[0]); i++)
		put_op(&d, op_cols[i] < 0 ? &none : &s->op[op_cols[i]], secs);
	emit(f, SWAT_DATA, 0, &d);
	fflush(f);
}
