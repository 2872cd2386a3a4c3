/* The keyword tables: which words each section accepts, their aliases, and VDbench's prefix
 * rule (reference §1.3): any prefix of two or more letters, the first match in table order. */
#include "keywords.h"

#include <ctype.h>
#include <errno.h>
#include <string.h>

#define GEN (1u << PARM_SEC_GENERAL)
#define HD  (1u << PARM_SEC_HD)
#define RG  (1u << PARM_SEC_RG)
#define SD  (1u << PARM_SEC_SD)
#define WD  (1u << PARM_SEC_WD)
#define RD  (1u << PARM_SEC_RD)

struct kw_entry {
	const char *name;
	enum parm_kw kw;
	unsigned int sections;
};

/* clang-format off: one keyword a line reads better as a table */
/* Table order decides ambiguous prefixes: the first entry of the section that matches wins. */
static const struct kw_entry kw_table[] = {
	/* general */
	{ "abort_failed_skew", PARM_KW_ABORT_FAILED_SKEW, GEN },
	{ "auxreport", PARM_KW_AUXREPORT, GEN },
	{ "compratio", PARM_KW_COMPRATIO, GEN },
	{ "compression", PARM_KW_COMPRESSION, GEN },
	{ "compressionseed", PARM_KW_COMPRESSIONSEED, GEN },
	{ "concatenatesds", PARM_KW_CONCATENATESDS, GEN },
	{ "create_anchors", PARM_KW_CREATE_ANCHORS, GEN },
	{ "data_errors", PARM_KW_DATA_ERRORS, GEN },
	{ "dataerrors", PARM_KW_DATA_ERRORS, GEN },
	{ "debug", PARM_KW_DEBUG, GEN },
	{ "dedupratio", PARM_KW_DEDUPRATIO, GEN | SD },
	{ "dedupunit", PARM_KW_DEDUPUNIT, GEN },
	{ "dedupsets", PARM_KW_DEDUPSETS, GEN | SD },
	{ "deduphotsets", PARM_KW_DEDUPHOTSETS, GEN | SD },
	{ "dedupflipflop", PARM_KW_DEDUPFLIPFLOP, GEN | SD },
	{ "endcmd", PARM_KW_ENDCMD, GEN | RD },
	{ "end_cmd", PARM_KW_ENDCMD, GEN | RD },
	{ "engine", PARM_KW_ENGINE, GEN },
	{ "formatsds", PARM_KW_FORMATSDS, GEN },
	{ "formatxfersize", PARM_KW_FORMATXFERSIZE, GEN },
	{ "fwd_thread_adjust", PARM_KW_FWD_THREAD_ADJUST, GEN },
	{ "heartbeat_error", PARM_KW_HEARTBEAT_ERROR, GEN },
	{ "histogram", PARM_KW_HISTOGRAM, GEN },
	{ "ios_per_jvm", PARM_KW_IOS_PER_JVM, GEN },
	{ "journal", PARM_KW_JOURNAL, GEN | SD },
	{ "loop", PARM_KW_LOOP, GEN },
	{ "messagescan", PARM_KW_MESSAGESCAN, GEN },
	{ "misc", PARM_KW_MISC, GEN },
	{ "monitor", PARM_KW_MONITOR, GEN },
	{ "pattern", PARM_KW_PATTERN, GEN },
	{ "pattern_buffer", PARM_KW_PATTERN_BUFFER, GEN },
	{ "port", PARM_KW_PORT, GEN },
	{ "psrset", PARM_KW_PSRSET, GEN },
	{ "report", PARM_KW_REPORT, GEN },
	{ "report_run_totals", PARM_KW_REPORT_RUN_TOTALS, GEN },
	{ "showlba", PARM_KW_SHOWLBA, GEN },
	{ "startcmd", PARM_KW_STARTCMD, GEN | RD },
	{ "start_cmd", PARM_KW_STARTCMD, GEN | RD },
	{ "swat", PARM_KW_SWAT, GEN },
	{ "timeout", PARM_KW_TIMEOUT, GEN },
	{ "validate", PARM_KW_VALIDATE, GEN },
	/* hd */
	{ "system", PARM_KW_SYSTEM, HD },
	{ "vdbench", PARM_KW_VDBENCH, HD },
	{ "shell", PARM_KW_SHELL, HD },
	{ "user", PARM_KW_USER, HD | WD },
	{ "jvms", PARM_KW_JVMS, HD },
	{ "master", PARM_KW_MASTER, HD },
	{ "clients", PARM_KW_CLIENTS, HD },
	{ "mount", PARM_KW_MOUNT, HD },
	/* rg */
	{ "devices", PARM_KW_DEVICES, RG },
	/* sd */
	{ "lun", PARM_KW_LUN, SD },
	{ "size", PARM_KW_SIZE, SD },
	{ "threads", PARM_KW_THREADS, SD | WD },
	{ "count", PARM_KW_COUNT, SD },
	{ "offset", PARM_KW_OFFSET, SD },
	{ "align", PARM_KW_ALIGN, SD },
	{ "range", PARM_KW_RANGE, SD | WD },
	{ "hitarea", PARM_KW_HITAREA, SD },
	{ "openflags", PARM_KW_OPENFLAGS, SD | WD | RD },
	{ "replay", PARM_KW_REPLAY, SD | RD },
	{ "host", PARM_KW_HOST, SD | WD },
	{ "hd", PARM_KW_HOST, SD | WD },
	{ "resetlun", PARM_KW_RESETLUN, SD },
	{ "resetbus", PARM_KW_RESETBUS, SD },
	{ "kstat", PARM_KW_KSTAT, SD },
	{ "instance", PARM_KW_INSTANCE, SD },
	{ "streams", PARM_KW_STREAMS, SD | WD },
	/* wd */
	{ "sd", PARM_KW_SD, WD | RD },
	{ "rdpct", PARM_KW_RDPCT, WD },
	{ "readpct", PARM_KW_RDPCT, WD },
	{ "wrpct", PARM_KW_WRPCT, WD },
	{ "writepct", PARM_KW_WRPCT, WD },
	{ "xfersize", PARM_KW_XFERSIZE, WD },
	{ "seekpct", PARM_KW_SEEKPCT, WD },
	{ "skew", PARM_KW_SKEW, WD },
	{ "iorate", PARM_KW_IORATE, WD | RD },
	{ "priority", PARM_KW_PRIORITY, WD },
	{ "hotband", PARM_KW_HOTBAND, WD },
	{ "rhpct", PARM_KW_RHPCT, WD },
	{ "whpct", PARM_KW_WHPCT, WD },
	{ "stride", PARM_KW_STRIDE, WD },
	/* rd */
	{ "wd", PARM_KW_WD, RD },
	{ "curve", PARM_KW_CURVE, RD },
	{ "stopcurve", PARM_KW_STOPCURVE, RD },
	{ "elapsed", PARM_KW_ELAPSED, RD },
	{ "interval", PARM_KW_INTERVAL, RD },
	{ "warmup", PARM_KW_WARMUP, RD },
	{ "pause", PARM_KW_PAUSE, RD },
	{ "maxdata", PARM_KW_MAXDATA, RD },
	{ "maxdataread", PARM_KW_MAXDATAREAD, RD },
	{ "maxdatawritten", PARM_KW_MAXDATAWRITTEN, RD },
	{ "distribution", PARM_KW_DISTRIBUTION, RD },
	{ "trace", PARM_KW_TRACE, RD },
	{ "forxfersize", PARM_KW_FORXFERSIZE, RD },
	{ "xfersize", PARM_KW_FORXFERSIZE, RD },
	{ "forthreads", PARM_KW_FORTHREADS, RD },
	{ "threads", PARM_KW_FORTHREADS, RD },
	{ "forrdpct", PARM_KW_FORRDPCT, RD },
	{ "rdpct", PARM_KW_FORRDPCT, RD },
	{ "forrhpct", PARM_KW_FORRHPCT, RD },
	{ "rhpct", PARM_KW_FORRHPCT, RD },
	{ "forhpct", PARM_KW_FORRHPCT, RD },
	{ "forwhpct", PARM_KW_FORWHPCT, RD },
	{ "whpct", PARM_KW_FORWHPCT, RD },
	{ "forseekpct", PARM_KW_FORSEEKPCT, RD },
	{ "seekpct", PARM_KW_FORSEEKPCT, RD },
	{ "forhitarea", PARM_KW_FORHITAREA, RD },
	{ "hitarea", PARM_KW_FORHITAREA, RD },
	{ "forcompratio", PARM_KW_FORCOMPRATIO, RD },
	{ "compratio", PARM_KW_FORCOMPRATIO, RD },
	{ "forcompression", PARM_KW_FORCOMPRESSION, RD },
	{ "compression", PARM_KW_FORCOMPRESSION, RD },
};
/* clang-format on */

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
};

const char *parm_kw_name(enum parm_kw kw)
{
	if ((unsigned int)kw >= PARM_KW_NR || !kw_names[kw])
		return "?";
	return kw_names[kw];
}

int parm_kw_lookup(enum parm_section sec, const char *written)
{
	size_t n = strlen(written);
	unsigned int bit = 1u << sec;
	char lower[64];

	if (n >= sizeof(lower))
		return -ENOENT;
	for (size_t i = 0; i <= n; i++)
		lower[i] = (char)tolower((unsigned char)written[i]);
	for (size_t i = 0; i < IORAMP_ARRAY_SIZE(kw_table); i++)
		if ((kw_table[i].sections & bit) && !strcmp(kw_table[i].name, lower))
			return (int)kw_table[i].kw;
	if (n < 2)
		return -EINVAL;
	for (size_t i = 0; i < IORAMP_ARRAY_SIZE(kw_table); i++)
		if ((kw_table[i].sections & bit) && !strncmp(kw_table[i].name, lower, n))
			return (int)kw_table[i].kw;
	return -ENOENT;
}

int parm_kw_other_section(enum parm_section sec, const char *written)
{
	for (int s = 0; s < PARM_SEC_NR; s++)
		if (s != (int)sec && parm_kw_lookup((enum parm_section)s, written) >= 0)
			return s;
	return -ENOENT;
}

const char *parm_section_name(enum parm_section sec)
{
	static const char *const names[PARM_SEC_NR] = {
		[PARM_SEC_GENERAL] = "general", [PARM_SEC_HD] = "hd", [PARM_SEC_RG] = "rg",
		[PARM_SEC_SD] = "sd",		[PARM_SEC_WD] = "wd", [PARM_SEC_RD] = "rd",
	};
	return (unsigned int)sec < PARM_SEC_NR ? names[sec] : "?";
}
