/* The output of bcc's and libbpf-tools' biosnoop (eBPF), one line per I/O at its completion:
 *   TIME(s)  COMM  PID  DISK  T  SECTOR  BYTES  [QUE(ms)]  LAT(ms)
 * TIME is seconds since the first event printed, LAT the time from the issue to the device to
 * completion, QUE (with -Q) the time queued in the OS before that. The I/O arrived at TIME -
 * LAT - QUE: its time here; its latency is LAT. COMM may hold blanks, so the fields after it
 * are read from the end of the line. Disks are numbered in order of first sight. */
#include "reader.h"

#include <errno.h>
#include <string.h>

#include "names.h"
#include "scan.h"

enum {
	BIOSNOOP_SECTOR_BYTES = 512,
	BIOSNOOP_MAX_DISKS = 1 << 16,
};

#define NS_PER_MS 1000000

static bool is_op(const char *w, size_t len)
{
	uint8_t op;

	return len && trace_rwbs_op(w, len, &op) >= 0;
}

/* The fields after COMM: [0] PID, [1] DISK, [2] T, [3] SECTOR, [4] BYTES, [5] QUE or NULL,
 * [6] LAT, found by where T is. False when the line is not one. */
static bool fields(const char *line, const char **f, size_t *len)
{
	const char *w[7];
	size_t l[7];
	int n = trace_scan_last_words(line, 7, w, l);

	if (n >= 6 && is_op(w[n - 4], l[n - 4])) { /* no QUE */
		for (int i = 0; i < 5; i++) {
			f[i] = w[n - 6 + i];
			len[i] = l[n - 6 + i];
		}
		f[5] = NULL;
		len[5] = 0;
		f[6] = w[n - 1];
		len[6] = l[n - 1];
		return true;
	}
	if (n == 7 && is_op(w[2], l[2])) {
		memcpy(f, w, sizeof(w));
		memcpy(len, l, sizeof(l));
		return true;
	}
	return false;
}

static bool is_number(const char *w, size_t len)
{
	const char *p = w;
	uint64_t v;

	return len && !trace_scan_dec_ns(&p, 1, &v) && p == w + len;
}

static bool biosnoop_probe(const char *line)
{
	const char *f[7], *p = line;
	size_t len[7];
	uint64_t v;

	if (trace_scan_dec_ns(&p, 1000000000, &v) || (*p != ' ' && *p != '\t'))
		return false;
	if (!fields(line, f, len))
		return false;
	return is_number(f[0], len[0]) && is_number(f[3], len[3]) && is_number(f[4], len[4]) &&
	       is_number(f[6], len[6]) && (!f[5] || is_number(f[5], len[5]));
}

static int ms_field(struct trace_reader *r, const char *w, size_t len, const char *what,
		    uint64_t *out_ns)
{
	const char *p = w;

	if (trace_scan_dec_ns(&p, NS_PER_MS, out_ns) || p != w + len)
		return trace_field_bad(r, w, 0, what, "a non-negative number of milliseconds");
	return 0;
}

static int int_field(struct trace_reader *r, const char *w, size_t len, const char *what,
		     uint64_t *out)
{
	const char *p = w;

	if (trace_scan_u64(&p, out) || p != w + len)
		return trace_field_bad(r, w, 0, what, "an unsigned integer");
	return 0;
}

static int biosnoop_parse(struct trace_reader *r, char *line, struct trace_rec *rec)
{
	const char *f[7], *p = line;
	size_t len[7];
	uint64_t t_ns, que_ns = 0, lat_ns, sector, bytes;
	int disk, ret;

	if (!trace_line_is_data(p))
		return 0; /* the header, and the notes some versions print first */
	if (trace_field_dec_ns(r, &p, 0, 1000000000, "TIME(s)", &t_ns) < 0)
		return -EINVAL;
	if (!fields(line, f, len))
		return trace_reader_bad(r, "no T (R or W) among the last fields; expected %s",
					r->fmt->layout);
	ret = trace_rwbs_op(f[2], len[2], &rec->op);
	if (ret < 0)
		return trace_field_bad(r, f[2], 0, "T", "R, W or other RWBS letters");
	if (!ret)
		return 0;
	if (int_field(r, f[3], len[3], "SECTOR", &sector) < 0 ||
	    int_field(r, f[4], len[4], "BYTES", &bytes) < 0 ||
	    (f[5] && ms_field(r, f[5], len[5], "QUE(ms)", &que_ns) < 0) ||
	    ms_field(r, f[6], len[6], "LAT(ms)", &lat_ns) < 0)
		return -EINVAL;
	if (sector > UINT64_MAX / BIOSNOOP_SECTOR_BYTES || bytes > UINT32_MAX)
		return trace_reader_bad(r, "SECTOR or BYTES too large");
	disk = trace_names_index(r->priv, f[1], len[1], BIOSNOOP_MAX_DISKS);
	if (disk == -E2BIG)
		return trace_reader_bad(r, "more than %d disks", BIOSNOOP_MAX_DISKS);
	if (disk < 0)
		return disk;
	rec->dev = (uint32_t)disk;
	rec->offset_bytes = sector * BIOSNOOP_SECTOR_BYTES;
	rec->size_bytes = (uint32_t)bytes;
	rec->latency_ns = lat_ns;
	rec->time_ns = t_ns > lat_ns + que_ns ? t_ns - lat_ns - que_ns : 0;
	return 1;
}

const struct trace_fmt trace_fmt_biosnoop = {
	.id = TRACE_FMT_BIOSNOOP,
	.name = "biosnoop",
	.layout = "TIME(s) COMM PID DISK T SECTOR BYTES [QUE(ms)] LAT(ms)",
	.probe_line = biosnoop_probe,
	.parse_line = biosnoop_parse,
	.init = trace_names_priv_init,
	.fini = trace_names_priv_fini,
};
