/* Wall-clock stamps in VDbench's layouts (Java's SimpleDateFormat patterns "HH:mm:ss.SSS",
 * "MMM dd, yyyy", "MM/dd/yyyy-HH:mm:ss-zzz"), in local time and the C locale's English month
 * names. */
#include "vdbtext.h"

#include <time.h>

uint64_t rep_now_ns(const struct rep_exec *x)
{
	struct timespec ts;

	if (x && x->tod_ns)
		return x->tod_ns(x->tod_ctx);
	clock_gettime(CLOCK_REALTIME, &ts);
	return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

static void fmt_local(char *buf, size_t len, const char *fmt, uint64_t tod_ns)
{
	time_t sec = (time_t)(tod_ns / 1000000000u);
	struct tm tm;

	localtime_r(&sec, &tm);
	if (!strftime(buf, len, fmt, &tm))
		buf[0] = '\0';
}

void rep_fmt_tod(char *buf, uint64_t tod_ns)
{
	char hms[REP_TOD_LEN];

	fmt_local(hms, sizeof(hms), "%H:%M:%S", tod_ns);
	snprintf(buf, REP_TOD_LEN, "%.8s.%03u", hms, (unsigned int)(tod_ns / 1000000u % 1000u));
}

void rep_fmt_date(char *buf, uint64_t tod_ns)
{
	fmt_local(buf, REP_TOD_LEN, "%b %d, %Y", tod_ns);
}

void rep_fmt_stamp(char *buf, uint64_t tod_ns)
{
	fmt_local(buf, REP_STAMP_LEN, "%m/%d/%Y-%H:%M:%S-%Z", tod_ns);
}

void rep_fmt_created(char *buf, uint64_t tod_ns)
{
	fmt_local(buf, REP_STAMP_LEN, "%H:%M:%S %b %d %Y %Z", tod_ns);
}

void rep_fmt_created_utc(char *buf, uint64_t tod_ns)
{
	time_t sec = (time_t)(tod_ns / 1000000000u);
	struct tm tm;

	gmtime_r(&sec, &tm);
	if (!strftime(buf, REP_STAMP_LEN, "%H:%M:%S %b %d %Y UTC", &tm))
		buf[0] = '\0';
}
