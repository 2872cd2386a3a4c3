/* Private to src/report: the helpers the outputs that render the results document
 * (ioramp/results.h) share: the console's curve block, curves.csv, names and numbers for
 * people. */
#ifndef IORAMP_REPORT_DOC_H
#define IORAMP_REPORT_DOC_H

#include <jansson.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "ioramp/report.h"
#include "ioramp/results.h"

/* ---- printing (curve_print.c, curves.c) ---------------------------------------------------- */

/* The end-of-curve block for the console: points, peak and IOPS at latency; live: the
 * document curve is in, if being built (NULL: a loaded one). */
void rep_doc_curve_print(const struct rep_doc *live, const json_t *curve, FILE *f);

/* curves.csv: a header and one row per curve point. Returns 0 or -EIO. */
int rep_doc_curves_csv(const json_t *doc, FILE *f);

/* A curve's display name: "rd1", "rd1 xfersize=8k". Returns buf. */
const char *rep_doc_curve_name(const json_t *curve, char *buf, size_t len);

/* One line per point of curve that missed its target ("rd1_(130%): reached 97,111 of 115,600
 * (84%), limited by device"); nothing when every point met its target. */
void rep_doc_curve_print_missed(const json_t *curve, FILE *f);

/* ---- numbers for people (numfmt.c) --------------------------------------------------------- */

/* A latency in us with 2 decimals below 10, 1 below 1000, else none. Returns buf. */
const char *rep_fmt_lat_us(double us, char *buf, size_t len);
/* An axis label: 500, 2.5k, 1.2M. Returns buf. */
const char *rep_fmt_si(double v, char *buf, size_t len);

#endif /* IORAMP_REPORT_DOC_H */
