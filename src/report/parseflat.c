/* Reading a flatfile back (reference §10.5, "ioramp parseflat"): the header line and data
 * lines of VDbench's or ioramp's flatfile.html, and the selection VDbench's parseflat makes:
 * columns by name, case-insensitive filters, avg_ lines or interval lines, CSV or tabs. */
#include "ioramp/report.h"

#include <ctype.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

static void free_words(char **w, size_t nr)
{
	for (size_t i = 0; w && i < nr; i++)
		free(w[i]);
	free(w);
}

/* Splits line at blanks into a malloc'ed array of nr_min or more strings ("" fills up). */
static char **split(const char *line, size_t nr_min, size_t *nr)
{
	size_t cap = nr_min > 8 ? nr_min : 8, n = 0;
	char **w = calloc(cap, sizeof(*w));

	while (w && *line) {
		size_t len;

		while (*line && isspace((unsigned char)*line))
			line++;
		for (len = 0; line[len] && !isspace((unsigned char)line[len]); len++)
			;
		if (!len)
			break;
		if (n == cap) {
			char **bigger = realloc(w, 2 * cap * sizeof(*w));

			if (!bigger)
				goto err;
			w = bigger;
			cap *= 2;
		}
		if (!(w[n++] = strndup(line, len)))
			goto err;
		line += len;
	}
	for (; w && n < nr_min; n++)
		if (!(w[n] = strdup("")))
			goto err;
	*nr = n;
	return w;
err:
	free_words(w, n);
	return NULL;
}

/* Comment, title and empty lines carry no data. */
static bool is_data(const char *line)
{
	while (*line == ' ' || *line == '\t')
		line++;
	return *line && *line != '\n' && *line != '\r' && *line != '*' && *line != '<';
}

static int add_row(struct rep_flat *fl, const char *line)
{
	char ***rows = realloc(fl->rows, (fl->nr_rows + 1) * sizeof(*rows));
	size_t nr;

	if (!rows)
		return -ENOMEM;
	fl->rows = rows;
	rows[fl->nr_rows] = split(line, fl->nr_cols, &nr);
	if (!rows[fl->nr_rows])
		return -ENOMEM;
	/* Values beyond the header's columns are dropped. */
	for (size_t i = fl->nr_cols; i < nr; i++) {
		free(rows[fl->nr_rows][i]);
		rows[fl->nr_rows][i] = NULL;
	}
	fl->nr_rows++;
	return 0;
}

int rep_flat_read(FILE *f, struct rep_flat *out)
{
	char *line = NULL;
	size_t cap = 0;
	int ret = 0;

	memset(out, 0, sizeof(*out));
	while (!ret && getline(&line, &cap, f) >= 0) {
		if (!is_data(line))
			continue;
		if (!out->cols) {
			out->cols = split(line, 0, &out->nr_cols);
			ret = out->cols ? 0 : -ENOMEM;
		} else {
			ret = add_row(out, line);
		}
	}
	free(line);
	if (!ret && !out->nr_cols)
		ret = -EINVAL;
	if (ret)
		rep_flat_fini(out);
	return ret;
}

void rep_flat_fini(struct rep_flat *fl)
{
	for (size_t i = 0; i < fl->nr_rows; i++)
		free_words(fl->rows[i], fl->nr_cols);
	free(fl->rows);
	free_words(fl->cols, fl->nr_cols);
	memset(fl, 0, sizeof(*fl));
}

int rep_flat_col(const struct rep_flat *fl, const char *name)
{
	for (size_t i = 0; i < fl->nr_cols; i++)
		if (!strcasecmp(fl->cols[i], name))
			return (int)i;
	return -ENOENT;
}

/* An average line: its Interval value (or, without that column, any value) starts avg_. */
static bool row_is_avg(const struct rep_flat *fl, char **row)
{
	int col = rep_flat_col(fl, "interval");

	if (col >= 0)
		return !strncasecmp(row[col], "avg_", 4);
	for (size_t i = 0; i < fl->nr_cols; i++)
		if (!strncasecmp(row[i], "avg_", 4))
			return true;
	return false;
}

/* The format pass's average is no result of the parameter file: -a leaves it out unless a
 * filter on Run asks for it (VDbench lists it). */
static bool is_unasked_format(const struct rep_flat *fl, char **row, const struct rep_flat_query *q)
{
	int col = rep_flat_col(fl, "run");

	if (!q->is_avg_only || col < 0 || strcasecmp(row[col], "SD_format"))
		return false;
	for (size_t i = 0; i < q->nr_filters; i++)
		if (!strcasecmp(q->filters[2 * i], "run"))
			return false;
	return true;
}

static bool row_matches(const struct rep_flat *fl, char **row, const struct rep_flat_query *q,
			const int *filter_cols)
{
	if (row_is_avg(fl, row) != q->is_avg_only || is_unasked_format(fl, row, q))
		return false;
	for (size_t i = 0; i < q->nr_filters; i++)
		if (strcasecmp(row[filter_cols[i]], q->filters[2 * i + 1]))
			return false;
	return true;
}

/* Expands "all" and resolves names; *cols (malloc'ed) gets the indexes. */
static int resolve(const struct rep_flat *fl, const struct rep_flat_query *q, int **cols,
		   size_t *nr, int **filter_cols, const char **bad_col)
{
	size_t n = 0;

	*cols = calloc(q->nr_cols * (fl->nr_cols + 1) + 1, sizeof(**cols));
	*filter_cols = calloc(q->nr_filters + 1, sizeof(**filter_cols));
	if (!*cols || !*filter_cols)
		return -ENOMEM;
	for (size_t i = 0; i < q->nr_cols; i++) {
		int c = rep_flat_col(fl, q->cols[i]);

		if (!strcasecmp(q->cols[i], "all") && c < 0) {
			for (size_t j = 0; j < fl->nr_cols; j++)
				(*cols)[n++] = (int)j;
			continue;
		}
		if (c < 0) {
			*bad_col = q->cols[i];
			return -ENOENT;
		}
		(*cols)[n++] = c;
	}
	for (size_t i = 0; i < q->nr_filters; i++) {
		(*filter_cols)[i] = rep_flat_col(fl, q->filters[2 * i]);
		if ((*filter_cols)[i] < 0) {
			*bad_col = q->filters[2 * i];
			return -ENOENT;
		}
	}
	*nr = n;
	return 0;
}

static void write_header(const struct rep_flat *fl, const struct rep_flat_query *q, FILE *out)
{
	const char *sep = q->is_tab ? "\t" : ",";
	bool is_first = true;

	for (size_t i = 0; i < q->nr_cols; i++) {
		/* "all" echoes the file's own names; a column named "all" wins over the keyword. */
		if (!strcasecmp(q->cols[i], "all") && rep_flat_col(fl, q->cols[i]) < 0) {
			for (size_t j = 0; j < fl->nr_cols; j++, is_first = false)
				fprintf(out, "%s%s", is_first ? "" : sep, fl->cols[j]);
			continue;
		}
		fprintf(out, "%s%s", is_first ? "" : sep, q->cols[i]);
		is_first = false;
	}
	fputc('\n', out);
}

int rep_flat_select(const struct rep_flat *fl, const struct rep_flat_query *q, FILE *out,
		    const char **bad_col)
{
	int *cols = NULL, *filter_cols = NULL, nr_out = 0;
	size_t nr = 0;
	int ret = resolve(fl, q, &cols, &nr, &filter_cols, bad_col);

	if (ret < 0)
		goto out;
	write_header(fl, q, out);
	for (size_t r = 0; r < fl->nr_rows; r++) {
		char **row = fl->rows[r];

		if (!row_matches(fl, row, q, filter_cols))
			continue;
		for (size_t i = 0; i < nr; i++) {
			const char *v = row[cols[i]];

			fprintf(out, "%s%s", i ? (q->is_tab ? "\t" : ",") : "",
				strcmp(v, "?") ? v : "0");
		}
		fputc('\n', out);
		nr_out++;
	}
	ret = nr_out;
out:
	free(cols);
	free(filter_cols);
	return ret;
}
