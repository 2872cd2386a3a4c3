/* Unit tests of dedup (src/engine/dedup.c): the counts of unique blocks and sets VDbench
 * 5.04.07 reported for the same parameters (its logfile's "unique_blocks", "dedup_sets_used"),
 * the refusal of more sets than the ratio leaves room for, and the data itself: an SD written
 * whole, in pieces of any size, holds exactly the distinct blocks the layout promises. */
#include <setjmp.h> /* cmocka needs these four first */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "../../src/engine/dedup.h"
#include "ioramp/parm.h"

struct dfx {
	struct parm_config *cfg;
	struct parm_source *keep;
	struct eng_dedup *dd;
	struct parm_err err;
};

/* Parses general lines plus sd=sd1 (and sd2) and lays dedup out on SDs of the sizes given. */
static int layout(struct dfx *f, const char *general, uint64_t sd1_bytes, uint64_t sd2_bytes)
{
	char text[1024];
	struct parm_input in = { 0 };
	uint64_t bytes[2] = { sd1_bytes, sd2_bytes };

	memset(f, 0, sizeof(*f));
	snprintf(text, sizeof(text),
		 "%s\nsd=sd1,lun=/tmp/a\nsd=sd2,lun=/tmp/b\nwd=wd1,sd=sd*,xfersize=4k\n"
		 "rd=rd1,wd=wd1,iorate=max,elapsed=2,interval=1\n",
		 general);
	assert_int_equal(
		parm_config_read_text("d.vdb", text, strlen(text), &in, &f->cfg, &f->keep, &f->err),
		0);
	return eng_dedup_new(f->cfg, bytes, &f->dd, &f->err);
}

static void fini(struct dfx *f)
{
	eng_dedup_free(f->dd);
	parm_config_free(f->cfg);
	parm_source_free(f->keep);
}

static void test_dedup_counts_match_vdbench(void **state)
{
	struct dfx f;

	(void)state;
	/* 8 MiB of 4 KiB: 2,048 blocks, 5% = 102 sets, floor(1024 - 102.4) = 921 unique */
	assert_int_equal(layout(&f, "dedupratio=2\ndedupunit=4k", 8 << 20, 0), 0);
	assert_int_equal(f.dd->sds[0].nr_units, 2048);
	assert_int_equal(f.dd->sds[0].nr_sets, 102);
	assert_int_equal(f.dd->sds[0].nr_unique, 921);
	assert_int_equal(f.dd->sds[1].nr_units, 0); /* unused: no dedup */
	fini(&f);
	assert_int_equal(layout(&f, "dedupratio=2\ndedupunit=4k\ndedupsets=100", 8 << 20, 0), 0);
	assert_int_equal(f.dd->sds[0].nr_sets, 100);
	assert_int_equal(f.dd->sds[0].nr_unique, 924);
	fini(&f);
	assert_int_equal(layout(&f, "dedupratio=2\ndedupunit=8k", 8 << 20, 0), 0);
	assert_int_equal(f.dd->sds[0].nr_sets, 51);
	assert_int_equal(f.dd->sds[0].nr_unique, 460);
	fini(&f);
	/* set numbers go on from one SD to the next */
	assert_int_equal(layout(&f, "dedupratio=3\ndedupunit=4k", 8 << 20, 4 << 20), 0);
	assert_int_equal(f.dd->sds[1].set_base, f.dd->sds[0].nr_sets);
	fini(&f);
	/* no dedupunit=: no dedup */
	assert_int_equal(layout(&f, "compratio=2", 8 << 20, 0), 0);
	assert_null(f.dd);
	fini(&f);
}

static void test_dedup_refuses_more_sets_than_room(void **state)
{
	struct dfx f;

	(void)state;
	/* VDbench: "requesting more dedupsets (102) than we have non-unique data blocks (68)" */
	assert_int_equal(layout(&f, "dedupratio=30\ndedupunit=4k", 8 << 20, 0), -EINVAL);
	assert_non_null(strstr(f.err.msg, "sd=sd1: dedupsets=5% asks for 102 sets"));
	assert_non_null(strstr(f.err.msg, "dedupratio=30"));
	assert_int_equal(f.err.loc.line, 1);
	fini(&f);
	assert_int_equal(layout(&f, "dedupratio=2\ndedupunit=4k\ndedupsets=60%", 8 << 20, 0),
			 -EINVAL);
	assert_int_equal(f.err.loc.line, 3);
	fini(&f);
}

/* Hashes of each unit of an SD image; the number of distinct ones. */
static size_t distinct_units(const char *img, uint64_t bytes, uint64_t unit)
{
	size_t n = bytes / unit, nr = 0;
	const char **seen = calloc(n, sizeof(*seen));

	for (size_t i = 0; i < n; i++) {
		size_t k = 0;

		while (k < nr && memcmp(seen[k], img + i * unit, unit))
			k++;
		if (k == nr)
			seen[nr++] = img + i * unit;
	}
	free(seen);
	return nr;
}

/* The SD written front to back in writes of xfer bytes from buffers of stale data. */
static void write_all(const struct dfx *f, const uint64_t *pattern, char *img, uint64_t bytes,
		      uint32_t xfer, uint64_t *nr)
{
	char *buf = malloc(xfer);

	for (uint64_t off = 0; off < bytes; off += xfer) {
		memset(buf, (int)(off / xfer), xfer); /* what a slot held before */
		eng_dedup_fill(f->dd, pattern, 0, buf, off, xfer, ++*nr);
		memcpy(img + off, buf, xfer);
	}
	free(buf);
}

static void test_dedup_data_holds_the_ratio(void **state)
{
	static const uint32_t xfers[] = { 4096, 65536, 2048, 512 };
	const uint64_t bytes = 1 << 20, unit = 4096;
	char *img = malloc(bytes);
	uint64_t *pattern, nr = 0;
	struct dfx f;

	(void)state;
	assert_int_equal(layout(&f, "dedupratio=2\ndedupunit=4k", bytes, 0), 0);
	pattern = eng_dedup_pattern(f.dd, 1, ENG_DEDUP_SEED);
	assert_non_null(pattern);
	/* 256 units: 12 sets, floor(128 - 12.8) = 115 unique: 127 distinct */
	for (size_t i = 0; i < sizeof(xfers) / sizeof(xfers[0]); i++) {
		write_all(&f, pattern, img, bytes, xfers[i], &nr);
		assert_int_equal(distinct_units(img, bytes, unit),
				 f.dd->sds[0].nr_unique + f.dd->sds[0].nr_sets);
	}
	assert_int_equal(f.dd->sds[0].nr_unique + f.dd->sds[0].nr_sets, 127);
	free(pattern);
	free(img);
	fini(&f);
}

static void test_dedup_units_larger_than_4k_keep_every_piece_distinct(void **state)
{
	const uint64_t bytes = 2 << 20, unit = 16384;
	char *img = malloc(bytes);
	uint64_t *pattern, nr = 0;
	struct dfx f;

	(void)state;
	assert_int_equal(layout(&f, "dedupratio=4\ndedupunit=16k\ndedupsets=3", bytes, 0), 0);
	pattern = eng_dedup_pattern(f.dd, 2, ENG_DEDUP_SEED);
	assert_non_null(pattern);
	write_all(&f, pattern, img, bytes, 4096, &nr);
	/* 128 units: floor(32 - 3) = 29 unique + 3 sets */
	assert_int_equal(distinct_units(img, bytes, unit), 32);
	/* within a unit no 4 KiB piece repeats another: a 4 KiB deduper sees the same ratio */
	assert_int_equal(distinct_units(img, bytes, 4096), 4 * 32);
	free(pattern);
	free(img);
	fini(&f);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_dedup_counts_match_vdbench),
		cmocka_unit_test(test_dedup_refuses_more_sets_than_room),
		cmocka_unit_test(test_dedup_data_holds_the_ratio),
		cmocka_unit_test(test_dedup_units_larger_than_4k_keep_every_piece_distinct),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
