/* The keyword tables of VDbench 5.04.07, one per section, in the order that settles an
 * abbreviation (tests/parm/FINDINGS.md §4): a keyword written in full (any case) is itself; a
 * shorter word of two or more letters is the first entry of its section that starts with it,
 * skipping the entries that VDbench accepts only in full. */
#include "keywords.h"

#include <ctype.h>
#include <errno.h>
#include <string.h>

struct kw_entry {
	const char *name;
	enum parm_kw kw;
	unsigned int flags; /* PARM_KWF_* */
};

#define X PARM_KWF_EXACT

/* One keyword a line reads better as a table. */
/* clang-format off */
static const struct kw_entry gen_table[] = {
	{ "abort_failed_skew", PARM_KW_ABORT_FAILED_SKEW, 0 },
	{ "auxreport", PARM_KW_AUXREPORT, 0 },
	{ "compratio", PARM_KW_COMPRATIO, 0 },
	{ "compression", PARM_KW_COMPRESSION, 0 },
	{ "compressionseed", PARM_KW_COMPRESSIONSEED, 0 },
	{ "concatenatesds", PARM_KW_CONCATENATESDS, 0 },
	{ "create_anchors", PARM_KW_CREATE_ANCHORS, 0 },
	{ "data_errors", PARM_KW_DATA_ERRORS, 0 },
	{ "dataerrors", PARM_KW_DATA_ERRORS, 0 },
	{ "debug", PARM_KW_DEBUG, X },
	{ "dedupratio", PARM_KW_DEDUPRATIO, X },
	{ "dedupunit", PARM_KW_DEDUPUNIT, X },
	{ "dedupsets", PARM_KW_DEDUPSETS, X },
	{ "deduphotsets", PARM_KW_DEDUPHOTSETS, X },
	{ "dedupflipflop", PARM_KW_DEDUPFLIPFLOP, X },
	{ "endcmd", PARM_KW_ENDCMD, X },
	{ "end_cmd", PARM_KW_ENDCMD, X },
	{ "engine", PARM_KW_ENGINE, X }, /* ioramp extension, never abbreviated ([274]) */
	{ "formatxfersize", PARM_KW_FORMATXFERSIZE, 0 }, /* fo..format: [054, 057] */
	{ "formatsds", PARM_KW_FORMATSDS, 0 },
	{ "fwd_thread_adjust", PARM_KW_FWD_THREAD_ADJUST, 0 },
	{ "heartbeat_error", PARM_KW_HEARTBEAT_ERROR, 0 },
	{ "histogram", PARM_KW_HISTOGRAM, 0 },
	{ "ios_per_jvm", PARM_KW_IOS_PER_JVM, 0 },
	{ "journal", PARM_KW_JOURNAL, X },
	{ "loop", PARM_KW_LOOP, X },
	{ "messagescan", PARM_KW_MESSAGESCAN, 0 },
	{ "misc", PARM_KW_MISC, 0 },
	{ "monitor", PARM_KW_MONITOR, 0 },
	{ "pattern", PARM_KW_PATTERN, 0 },
	{ "pattern_buffer", PARM_KW_PATTERN_BUFFER, 0 },
	{ "port", PARM_KW_PORT, 0 },
	{ "psrset", PARM_KW_PSRSET, 0 },
	{ "report", PARM_KW_REPORT, 0 },
	{ "report_run_totals", PARM_KW_REPORT_RUN_TOTALS, 0 },
	{ "showlba", PARM_KW_SHOWLBA, X },
	{ "startcmd", PARM_KW_STARTCMD, X },
	{ "start_cmd", PARM_KW_STARTCMD, X },
	{ "swat", PARM_KW_SWAT, 0 },
	{ "timeout", PARM_KW_TIMEOUT, 0 },
	{ "validate", PARM_KW_VALIDATE, 0 },
};

static const struct kw_entry hd_table[] = {
	{ "system", PARM_KW_SYSTEM, 0 },
	{ "vdbench", PARM_KW_VDBENCH, 0 },
	{ "shell", PARM_KW_SHELL, 0 },
	{ "user", PARM_KW_USER, 0 },
	{ "jvms", PARM_KW_JVMS, 0 },
	{ "master", PARM_KW_MASTER, 0 },
	{ "clients", PARM_KW_CLIENTS, 0 },
	{ "mount", PARM_KW_MOUNT, 0 },
};

static const struct kw_entry rg_table[] = {
	{ "devices", PARM_KW_DEVICES, 0 },
};

static const struct kw_entry sd_table[] = {
	{ "lun", PARM_KW_LUN, 0 },
	{ "size", PARM_KW_SIZE, 0 },
	{ "threads", PARM_KW_THREADS, 0 },
	{ "hitarea", PARM_KW_HITAREA, 0 },
	{ "offset", PARM_KW_OFFSET, 0 },
	{ "align", PARM_KW_ALIGN, 0 },
	{ "range", PARM_KW_RANGE, 0 },
	{ "openflags", PARM_KW_OPENFLAGS, 0 },
	{ "journal", PARM_KW_JOURNAL, 0 },
	{ "count", PARM_KW_COUNT, 0 },
	{ "host", PARM_KW_HOST, 0 },
	{ "hd", PARM_KW_HOST, X },
	{ "replay", PARM_KW_REPLAY, 0 }, /* re= [051] */
	{ "resetlun", PARM_KW_RESETLUN, 0 },
	{ "resetbus", PARM_KW_RESETBUS, 0 },
	{ "streams", PARM_KW_STREAMS, 0 }, /* st= [052] */
	{ "kstat", PARM_KW_KSTAT, 0 },
	{ "instance", PARM_KW_INSTANCE, 0 },
	{ "dedupratio", PARM_KW_DEDUPRATIO, X },
	{ "dedupsets", PARM_KW_DEDUPSETS, X },
	{ "deduphotsets", PARM_KW_DEDUPHOTSETS, X },
	{ "dedupflipflop", PARM_KW_DEDUPFLIPFLOP, X },
};

static const struct kw_entry wd_table[] = {
	{ "sd", PARM_KW_SD, X },
	{ "xfersize", PARM_KW_XFERSIZE, 0 },
	{ "seekpct", PARM_KW_SEEKPCT, 0 },
	{ "skew", PARM_KW_SKEW, 0 },
	{ "range", PARM_KW_RANGE, 0 },
	{ "openflags", PARM_KW_OPENFLAGS, 0 },
	{ "stride", PARM_KW_STRIDE, 0 }, /* st, str, stri [046] */
	{ "streams", PARM_KW_STREAMS, 0 },
	{ "hotband", PARM_KW_HOTBAND, 0 }, /* ho, hot [047] */
	{ "host", PARM_KW_HOST, 0 },
	{ "hd", PARM_KW_HOST, X },
	{ "priority", PARM_KW_PRIORITY, 0 },
	{ "iorate", PARM_KW_IORATE, 0 },
	{ "rhpct", PARM_KW_RHPCT, 0 },
	{ "whpct", PARM_KW_WHPCT, 0 },
	{ "readpct", PARM_KW_RDPCT, 0 }, /* re= [044] */
	{ "rdpct", PARM_KW_RDPCT, 0 },
	{ "wrpct", PARM_KW_WRPCT, 0 },
	{ "writepct", PARM_KW_WRPCT, 0 },
	{ "threads", PARM_KW_THREADS, 0 },
	{ "user", PARM_KW_USER, X }, /* [048] */
};

static const struct kw_entry rd_table[] = {
	{ "wd", PARM_KW_WD, X },
	{ "sd", PARM_KW_SD, X },
	{ "forxfersize", PARM_KW_FORXFERSIZE, 0 }, /* fo, for [034, 037] */
	{ "forrdpct", PARM_KW_FORRDPCT, 0 },
	{ "forrhpct", PARM_KW_FORRHPCT, 0 },
	{ "forwhpct", PARM_KW_FORWHPCT, 0 },
	{ "forseekpct", PARM_KW_FORSEEKPCT, 0 },
	{ "forthreads", PARM_KW_FORTHREADS, 0 },
	{ "forhitarea", PARM_KW_FORHITAREA, 0 },
	{ "forcompratio", PARM_KW_FORCOMPRATIO, 0 },
	{ "forcompression", PARM_KW_FORCOMPRESSION, 0 },
	{ "threads", PARM_KW_FORTHREADS, 0 },
	{ "xfersize", PARM_KW_FORXFERSIZE, 0 },
	{ "rdpct", PARM_KW_FORRDPCT, 0 },
	{ "rhpct", PARM_KW_FORRHPCT, 0 },
	{ "whpct", PARM_KW_FORWHPCT, 0 },
	{ "hitarea", PARM_KW_FORHITAREA, 0 },
	{ "seekpct", PARM_KW_FORSEEKPCT, PARM_KWF_SINGLE }, /* [232] */
	{ "compratio", PARM_KW_FORCOMPRATIO, 0 }, /* co..compr [036] */
	{ "compression", PARM_KW_FORCOMPRESSION, 0 },
	{ "iorate", PARM_KW_IORATE, 0 },
	{ "elapsed", PARM_KW_ELAPSED, 0 },
	{ "interval", PARM_KW_INTERVAL, 0 },
	{ "warmup", PARM_KW_WARMUP, 0 },
	{ "pause", PARM_KW_PAUSE, 0 },
	{ "curve", PARM_KW_CURVE, 0 },
	{ "distribution", PARM_KW_DISTRIBUTION, 0 },
	{ "stopcurve", PARM_KW_STOPCURVE, 0 }, /* st [038] */
	{ "startcmd", PARM_KW_STARTCMD, 0 },
	{ "start_cmd", PARM_KW_STARTCMD, 0 },
	{ "endcmd", PARM_KW_ENDCMD, 0 },
	{ "end_cmd", PARM_KW_ENDCMD, 0 },
	{ "operation", PARM_KW_OPERATION, 0 }, /* op, ope: file-system mode [039] */
	{ "openflags", PARM_KW_OPENFLAGS, 0 },
	{ "mount", PARM_KW_MOUNT, 0 },
	{ "maxdata", PARM_KW_MAXDATA, X }, /* [040, 041] */
	{ "maxdataread", PARM_KW_MAXDATAREAD, X },
	{ "maxdatawritten", PARM_KW_MAXDATAWRITTEN, X },
	{ "fwdrate", PARM_KW_FWDRATE, 0 }, /* file-system mode [032] */
	{ "trace", PARM_KW_TRACE, X }, /* ioramp extension, never abbreviated */
	{ "replay", PARM_KW_REPLAY, X }, /* replay=(file,...) as trace=; "re" is unknown [042] */
};
/* clang-format on */

struct kw_section {
	const struct kw_entry *table;
	size_t nr;
};

static const struct kw_section sections[PARM_SEC_NR] = {
	[PARM_SEC_GENERAL] = { gen_table, IORAMP_ARRAY_SIZE(gen_table) },
	[PARM_SEC_HD] = { hd_table, IORAMP_ARRAY_SIZE(hd_table) },
	[PARM_SEC_RG] = { rg_table, IORAMP_ARRAY_SIZE(rg_table) },
	[PARM_SEC_SD] = { sd_table, IORAMP_ARRAY_SIZE(sd_table) },
	[PARM_SEC_WD] = { wd_table, IORAMP_ARRAY_SIZE(wd_table) },
	[PARM_SEC_RD] = { rd_table, IORAMP_ARRAY_SIZE(rd_table) },
};

static const char *const kw_names[PARM_KW_NR] = {
	[PARM_KW_ABORT_FAILED_SKEW] = "abort_failed_skew",
	[PARM_KW_AUXREPORT] = "auxreport",
	[PARM_KW_COMPRATIO] = "compratio",
	[PARM_KW_COMPRESSION] = "compression",
	[PARM_KW_COMPRESSIONSEED] = "compressionseed",
	[PARM_KW_CONCATENATESDS] = "concatenatesds",
	[PARM_KW_CREATE_ANCHORS] = "create_anchors",
	[PARM_KW_DATA_ERRORS] = "data_errors",
	[PARM_KW_DEBUG] = "debug",
	[PARM_KW_DEDUPFLIPFLOP] = "dedupflipflop",
	[PARM_KW_DEDUPHOTSETS] = "deduphotsets",
	[PARM_KW_DEDUPRATIO] = "dedupratio",
	[PARM_KW_DEDUPSETS] = "dedupsets",
	[PARM_KW_DEDUPUNIT] = "dedupunit",
	[PARM_KW_ENDCMD] = "endcmd",
	[PARM_KW_ENGINE] = "engine",
	[PARM_KW_FORMATSDS] = "formatsds",
	[PARM_KW_FORMATXFERSIZE] = "formatxfersize",
	[PARM_KW_FWD_THREAD_ADJUST] = "fwd_thread_adjust",
	[PARM_KW_HEARTBEAT_ERROR] = "heartbeat_error",
	[PARM_KW_HISTOGRAM] = "histogram",
	[PARM_KW_IOS_PER_JVM] = "ios_per_jvm",
	[PARM_KW_JOURNAL] = "journal",
	[PARM_KW_LOOP] = "loop",
	[PARM_KW_MESSAGESCAN] = "messagescan",
	[PARM_KW_MISC] = "misc",
	[PARM_KW_MONITOR] = "monitor",
	[PARM_KW_PATTERN] = "pattern",
	[PARM_KW_PATTERN_BUFFER] = "pattern_buffer",
	[PARM_KW_PORT] = "port",
	[PARM_KW_PSRSET] = "psrset",
	[PARM_KW_REPORT] = "report",
	[PARM_KW_REPORT_RUN_TOTALS] = "report_run_totals",
	[PARM_KW_SHOWLBA] = "showlba",
	[PARM_KW_STARTCMD] = "startcmd",
	[PARM_KW_SWAT] = "swat",
	[PARM_KW_TIMEOUT] = "timeout",
	[PARM_KW_VALIDATE] = "validate",
	[PARM_KW_HD] = "hd",
	[PARM_KW_CLIENTS] = "clients",
	[PARM_KW_JVMS] = "jvms",
	[PARM_KW_MASTER] = "master",
	[PARM_KW_MOUNT] = "mount",
	[PARM_KW_SHELL] = "shell",
	[PARM_KW_SYSTEM] = "system",
	[PARM_KW_USER] = "user",
	[PARM_KW_VDBENCH] = "vdbench",
	[PARM_KW_RG] = "rg",
	[PARM_KW_DEVICES] = "devices",
	[PARM_KW_SD] = "sd",
	[PARM_KW_ALIGN] = "align",
	[PARM_KW_COUNT] = "count",
	[PARM_KW_HITAREA] = "hitarea",
	[PARM_KW_HOST] = "host",
	[PARM_KW_INSTANCE] = "instance",
	[PARM_KW_KSTAT] = "kstat",
	[PARM_KW_LUN] = "lun",
	[PARM_KW_OFFSET] = "offset",
	[PARM_KW_OPENFLAGS] = "openflags",
	[PARM_KW_RANGE] = "range",
	[PARM_KW_REPLAY] = "replay",
	[PARM_KW_RESETBUS] = "resetbus",
	[PARM_KW_RESETLUN] = "resetlun",
	[PARM_KW_SIZE] = "size",
	[PARM_KW_THREADS] = "threads",
	[PARM_KW_WD] = "wd",
	[PARM_KW_HOTBAND] = "hotband",
	[PARM_KW_IORATE] = "iorate",
	[PARM_KW_PRIORITY] = "priority",
	[PARM_KW_RDPCT] = "rdpct",
	[PARM_KW_WRPCT] = "wrpct",
	[PARM_KW_RHPCT] = "rhpct",
	[PARM_KW_SEEKPCT] = "seekpct",
	[PARM_KW_SKEW] = "skew",
	[PARM_KW_STREAMS] = "streams",
	[PARM_KW_STRIDE] = "stride",
	[PARM_KW_WHPCT] = "whpct",
	[PARM_KW_XFERSIZE] = "xfersize",
	[PARM_KW_RD] = "rd",
	[PARM_KW_CURVE] = "curve",
	[PARM_KW_DISTRIBUTION] = "distribution",
	[PARM_KW_ELAPSED] = "elapsed",
	[PARM_KW_INTERVAL] = "interval",
	[PARM_KW_MAXDATA] = "maxdata",
	[PARM_KW_MAXDATAREAD] = "maxdataread",
	[PARM_KW_MAXDATAWRITTEN] = "maxdatawritten",
	[PARM_KW_PAUSE] = "pause",
	[PARM_KW_STOPCURVE] = "stopcurve",
	[PARM_KW_WARMUP] = "warmup",
	[PARM_KW_TRACE] = "trace",
	[PARM_KW_FORCOMPRATIO] = "forcompratio",
	[PARM_KW_FORCOMPRESSION] = "forcompression",
	[PARM_KW_FORHITAREA] = "forhitarea",
	[PARM_KW_FORRDPCT] = "forrdpct",
	[PARM_KW_FORRHPCT] = "forrhpct",
	[PARM_KW_FORSEEKPCT] = "forseekpct",
	[PARM_KW_FORTHREADS] = "forthreads",
	[PARM_KW_FORWHPCT] = "forwhpct",
	[PARM_KW_FORXFERSIZE] = "forxfersize",
	[PARM_KW_OPERATION] = "operation",
	[PARM_KW_FWDRATE] = "fwdrate",
	[PARM_KW_IORATE_LIST] = "iorate",
};

const char *parm_kw_name(enum parm_kw kw)
{
	if ((unsigned int)kw >= PARM_KW_NR || !kw_names[kw])
		return "?";
	return kw_names[kw];
}

int parm_kw_match(enum parm_section sec, const char *written, struct parm_kw_match *out)
{
	const struct kw_section *s;
	size_t n = strlen(written);
	char lower[64];

	if ((unsigned int)sec >= PARM_SEC_NR || n >= sizeof(lower))
		return -ENOENT;
	s = &sections[sec];
	for (size_t i = 0; i <= n; i++)
		lower[i] = (char)tolower((unsigned char)written[i]);
	for (size_t i = 0; i < s->nr; i++)
		if (!strcmp(s->table[i].name, lower)) {
			out->kw = s->table[i].kw;
			out->flags = s->table[i].flags;
			out->is_abbrev = false;
			return 0;
		}
	if (n < 2)
		return -EINVAL;
	for (size_t i = 0; i < s->nr; i++)
		if (!(s->table[i].flags & PARM_KWF_EXACT) && !strncmp(s->table[i].name, lower, n)) {
			out->kw = s->table[i].kw;
			out->flags = s->table[i].flags;
			out->is_abbrev = true;
			return 0;
		}
	return -ENOENT;
}

int parm_kw_lookup(enum parm_section sec, const char *written)
{
	struct parm_kw_match m;
	int ret = parm_kw_match(sec, written, &m);

	return ret ? ret : (int)m.kw;
}

int parm_kw_other_section(enum parm_section sec, const char *written)
{
	struct parm_kw_match m;

	for (int s = 0; s < PARM_SEC_NR; s++)
		if (s != (int)sec && !parm_kw_match((enum parm_section)s, written, &m) &&
		    !m.is_abbrev)
			return s;
	return -ENOENT;
}

const char *parm_kw_full_only(enum parm_section sec, const char *written)
{
	size_t n = strlen(written);

	if ((unsigned int)sec >= PARM_SEC_NR || n < 2)
		return NULL;
	for (size_t i = 0; i < sections[sec].nr; i++) {
		const struct kw_entry *e = &sections[sec].table[i];

		if ((e->flags & PARM_KWF_EXACT) && n < strlen(e->name) &&
		    !strncasecmp(e->name, written, n))
			return e->name;
	}
	return NULL;
}

static const char *suggest_in(enum parm_section sec, const char *written)
{
	const char *names[128];
	size_t nr = 0;

	for (size_t i = 0; i < sections[sec].nr && nr < IORAMP_ARRAY_SIZE(names); i++) {
		if (!strcasecmp(sections[sec].table[i].name, written))
			return sections[sec]
				.table[i]
				.name; /* written in full, in another section */
		names[nr++] = sections[sec].table[i].name;
	}
	return parm_suggest(written, names, nr);
}

const char *parm_kw_suggest(enum parm_section sec, const char *written, int *other_sec)
{
	const char *here = (unsigned int)sec < PARM_SEC_NR ? suggest_in(sec, written) : NULL;
	size_t best_d = here ? parm_edit_distance(written, here) : SIZE_MAX;
	const char *best = here;

	*other_sec = -1;
	for (int s = 0; s < PARM_SEC_NR; s++) {
		const char *c = s == (int)sec ? NULL : suggest_in((enum parm_section)s, written);

		if (c && parm_edit_distance(written, c) < best_d) {
			best_d = parm_edit_distance(written, c);
			best = c;
			*other_sec = s;
		}
	}
	return best;
}

const char *parm_section_name(enum parm_section sec)
{
	static const char *const names[PARM_SEC_NR] = {
		[PARM_SEC_GENERAL] = "general", [PARM_SEC_HD] = "hd", [PARM_SEC_RG] = "rg",
		[PARM_SEC_SD] = "sd",		[PARM_SEC_WD] = "wd", [PARM_SEC_RD] = "rd",
	};
	return (unsigned int)sec < PARM_SEC_NR ? names[sec] : "?";
}
