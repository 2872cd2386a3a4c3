/* Private to src/cli: a suite's output directory read back (suite_dir.c), for `ioramp report
 * SUITEDIR` (the suite page rendered again) and `ioramp compare SUITE_A SUITE_B` (profile by
 * profile). */
#ifndef IORAMP_CLI_SUITE_DIR_H
#define IORAMP_CLI_SUITE_DIR_H

#include <stdbool.h>
#include <stddef.h>

#include "library.h"

struct json_t;
struct rep_overlay;

struct cli_suite_dir_profile {
	char name[256];	    /* its subdirectory: "sql" */
	char title[256];    /* the library's title, else the name */
	char start[64];	    /* its execution's start time, for the order */
	char results[4200]; /* DIR/NAME/results.json */
	struct cli_profile_info info;
	char figures[256]; /* from its parmfile.html, as the suite run shows them; "": unknown */
	struct json_t *doc;
};

struct cli_suite_dir {
	struct cli_suite_dir_profile *p; /* in the order they ran */
	size_t nr;
};

/* Whether dir is a directory without a results.json or flatfile.html of its own (so maybe a
 * suite's). */
bool cli_suite_dir_is(const char *dir);
/* Loads every DIR/NAME/results.json. Returns 0, or -errno / -EINVAL (none found, or one
 * unreadable) with the reason in err. */
int cli_suite_dir_load(const char *dir, struct cli_suite_dir *out, char *err, size_t errlen);
void cli_suite_dir_fini(struct cli_suite_dir *s);
/* What cli_suite_dir_report draws and where, and why it failed. */
struct cli_suite_dir_page {
	const char *page;	 /* the page to write */
	const char *href_prefix; /* from the page's directory to the suite's ("" beside it) */
	/* Published curves, each on the average latency chart of the profile its name names: */
	const struct rep_overlay *ov;
	size_t nr_ov;
	/* Out, on failure: */
	bool is_write_error; /* the page could not be written (else: bad input) */
	char err[512];
};

/* Writes the suite page. Returns 0 or -errno with the reason in pg->err: -EINVAL for an
 * overlay whose name is no profile's or that cannot be read or drawn. */
int cli_suite_dir_report(const struct cli_suite_dir *s, struct cli_suite_dir_page *pg);

#endif /* IORAMP_CLI_SUITE_DIR_H */
