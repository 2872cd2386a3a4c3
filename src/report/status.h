/* Private to src/report: the status line's observer on any stream, so tests can drive it
 * without a terminal. */
#ifndef IORAMP_REPORT_STATUS_H
#define IORAMP_REPORT_STATUS_H

#include <stdbool.h>
#include <stdio.h>

#include "ioramp/report.h"

/* Opens the status line on f; when is_tty is false *state stays NULL and nothing is ever
 * written. width is the most columns the line may use. Returns 0 or -ENOMEM. */
int rep_status_open_on(const struct rep_exec *x, FILE *f, bool is_tty, unsigned int width,
		       void **state);

#endif /* IORAMP_REPORT_STATUS_H */
