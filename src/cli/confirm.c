/* What the suite will write to, shown before anything is written, and the confirmation that
 * block devices need: --yes, or "yes" typed on the controlling terminal. Without a terminal
 * and without --yes, the suite refuses; files need no confirmation. */
#include "suite.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <strings.h>
#include <unistd.h>

#include "cli.h"

static const char *fmt_bytes(uint64_t bytes, char *buf, size_t len)
{
	static const char *const units[] = { "bytes", "KiB", "MiB", "GiB", "TiB", "PiB" };
	double v = (double)bytes;
	size_t u = 0;

	while (v >= 1024 && u + 1 < sizeof(units) / sizeof(units[0])) {
		v /= 1024;
		u++;
	}
	snprintf(buf, len, u ? "%.1f %s" : "%.0f %s", v, units[u]);
	return buf;
}

static void print_drive(const struct cli_suite *s, const struct cli_drive *d, int width)
{
	const struct eng_target_info *in = &d->info;
	char size[32];

	printf("  %-*s ", width, d->path);
	if (eng_engine_is_model(s->o.engine)) {
		printf("modelled drive of size=%s (nothing is opened)\n", s->o.size);
		return;
	}
	if (!d->exists) {
		printf("file, created with size=%s\n", s->o.size);
		return;
	}
	printf("%-12s %10s", in->is_block ? "block device" : "file",
	       fmt_bytes(in->size_bytes, size, sizeof(size)));
	if (in->model[0])
		printf("  %s", in->model);
	if (in->is_block && in->has_signature)
		printf("  signature: %s", in->signature);
	else if (in->is_block)
		printf("  no signature");
	if (in->is_held)
		printf("  (%s)", in->holder);
	putchar('\n');
}

/* Writing to a device that is in use or carries a signature is refused before asking. */
static int check_refusals(const struct cli_suite *s)
{
	for (size_t i = 0; i < s->o.nr_drives; i++) {
		const struct cli_drive *d = &s->drives[i];

		if (!d->info.is_block)
			continue;
		if (d->info.is_held) {
			fprintf(stderr,
				"ioramp suite: error: %s is %s; ioramp never writes to it\n",
				d->path, d->info.holder);
			return CLI_EXIT_USAGE;
		}
		if (d->info.has_signature && !s->o.is_force) {
			fprintf(stderr,
				"ioramp suite: error: %s carries a signature (%s); --force writes to "
				"it anyway\n",
				d->path, d->info.signature);
			return CLI_EXIT_USAGE;
		}
	}
	return CLI_EXIT_OK;
}

/* Reads the answer on the controlling terminal: 0 yes, 1 anything else, -errno without one. */
static int ask_tty(const char *question)
{
	char answer[64];
	size_t n = 0;
	int fd = open("/dev/tty", O_RDWR | O_NOCTTY | O_CLOEXEC);

	if (fd < 0)
		return -errno;
	if (write(fd, question, strlen(question)) < 0) {
		close(fd);
		return -EIO;
	}
	while (n + 1 < sizeof(answer)) {
		ssize_t r = read(fd, answer + n, 1);

		if (r <= 0 || answer[n] == '\n')
			break;
		n++;
	}
	close(fd);
	answer[n] = '\0';
	return !strcasecmp(answer, "yes") || !strcasecmp(answer, "y") ? 0 : 1;
}

int cli_suite_confirm(const struct cli_suite *s)
{
	bool is_writing = false, has_block = false;
	int width = 8, ret;

	for (size_t i = 0; i < s->nr; i++)
		is_writing = is_writing || s->p[i].is_writing;
	for (size_t i = 0; i < s->o.nr_drives; i++) {
		has_block = has_block || s->drives[i].info.is_block;
		width = (int)strlen(s->drives[i].path) > width ? (int)strlen(s->drives[i].path)
							       : width;
	}
	printf("ioramp suite: %zu profile%s on %zu drive%s, output in %s:\n", s->nr,
	       s->nr == 1 ? "" : "s", s->o.nr_drives, s->o.nr_drives == 1 ? "" : "s",
	       s->o.outdir ? s->o.outdir : "suite");
	for (size_t i = 0; i < s->o.nr_drives; i++)
		print_drive(s, &s->drives[i], width);
	fflush(stdout);
	if (!is_writing || !has_block)
		return CLI_EXIT_OK;
	ret = check_refusals(s);
	if (ret)
		return ret;
	printf("The profiles write to the block devices above: the data on them will be lost.\n");
	fflush(stdout);
	if (s->o.is_yes)
		return CLI_EXIT_OK;
	ret = ask_tty("Write to these devices? Type yes to go on: ");
	if (ret < 0) {
		fprintf(stderr,
			"ioramp suite: error: writing to block devices needs --yes or a "
			"confirmation on a terminal, and there is no terminal; nothing written\n");
		return CLI_EXIT_USAGE;
	}
	if (ret) {
		fprintf(stderr, "ioramp suite: not confirmed; nothing written\n");
		return CLI_EXIT_FAILED;
	}
	return CLI_EXIT_OK;
}
