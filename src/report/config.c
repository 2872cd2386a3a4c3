/* config.html: what the host is, as VDbench 5.04.07 records it at the start of a run (observed
 * on Linux): "Output from script ...:", then for each command the date, ">>>>>command" and the
 * command's output. ioramp runs the same commands itself (none of VDbench's script is used);
 * one that does not exist says so in its output, as it does under VDbench's shell. */
#include "ioramp/report.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <time.h>

#include "vdbtext.h"

/* clang-format off */
static const struct {
	const char *label; /* the heading VDbench prints */
	const char *cmd;
} commands[] = {
	{ "uname -a", "uname -a" },
	{ "ifconfig -a", "ifconfig -a" },
	{ "id", "id" },
	{ "mount", "mount" },
	{ "memory", "cat /proc/meminfo; free -l" },
	{ "ps -ef | grep -i vdb", "ps -ef | grep -i vdb" }, /* ioramp's -f FILE.vdb matches too */
};
/* clang-format on */

/* The date(1) line, its blanks collapsed as VDbench's script prints it ("Wed Dec 2 ..."). */
static void date_line(FILE *f)
{
	char buf[64];
	time_t now = time(NULL);
	struct tm tm;

	if (localtime_r(&now, &tm) && strftime(buf, sizeof(buf), "%a %b %-d %H:%M:%S %Z %Y", &tm))
		fprintf(f, "%s\n", buf);
}

static void run_command(FILE *f, const char *cmd)
{
	char line[4096], sh[512];
	FILE *p;

	snprintf(sh, sizeof(sh), "(%s) 2>&1 </dev/null", cmd);
	fflush(f);
	p = popen(sh, "r");
	if (!p) {
		fprintf(f, "%s: %s\n", cmd, strerror(errno));
		return;
	}
	while (fgets(line, sizeof(line), p))
		fputs(line, f);
	pclose(p);
}

static int config_open(const struct rep_exec *x, void **state)
{
	FILE *f;

	*state = NULL;
	if (!x->outdir)
		return 0;
	f = rep_html_open(x, "config.html");
	if (!f)
		return -errno;
	fprintf(f, "Output from script ioramp (its own copy of the commands): \n\n");
	for (size_t i = 0; i < IORAMP_ARRAY_SIZE(commands); i++) {
		date_line(f);
		fprintf(f, ">>>>>%s\n", commands[i].label);
		run_command(f, commands[i].cmd);
	}
	fputc('\n', f);
	return rep_html_close(f);
}

const struct rep_ops rep_config = {
	.name = "config",
	.file = "config.html",
	.open = config_open,
};
