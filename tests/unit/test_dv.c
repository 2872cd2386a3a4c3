/* Unit tests of src/dv: sector headers and bodies, the classification of every kind of
 * mismatch, the key map's key sequence and busy bits, the options, and the journal (write,
 * records, replay, torn tails, checkpoints) in a scratch directory under $TMPDIR. */
#include <setjmp.h> /* cmocka needs these four first */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "ioramp/dv.h"

#define KB 4096u

static struct dv_id test_id(const char *name)
{
	struct dv_id id;

	assert_int_equal(dv_id_init(&id, name, 4242), 0);
	return id;
}

static void test_id_name(void **state)
{
	struct dv_id id;

	(void)state;
	assert_int_equal(dv_id_init(&id, "sd1", 7), 0);
	assert_memory_equal(id.name, "sd1     ", 8);
	assert_int_equal(dv_id_init(&id, "12345678", 7), 0);
	assert_int_equal(dv_id_init(&id, "123456789", 7), -ENAMETOOLONG);
}

/* The header layout VDbench writes (reference §12.1), as native 32-bit words. */
static void test_fill_header_layout(void **state)
{
	struct dv_id id = test_id("sd1");
	uint8_t buf[1024];
	uint32_t w;

	(void)state;
	dv_fill(buf, 0x123400000200ull, sizeof(buf), 70, &id, 0x000001a22c385140ull);
	memcpy(&w, buf + 0, 4);
	assert_int_equal(w, 0x1234);
	memcpy(&w, buf + 4, 4);
	assert_int_equal(w, 0x200);
	memcpy(&w, buf + 8, 4);
	assert_int_equal(w, 0x1a2);
	memcpy(&w, buf + 12, 4);
	assert_int_equal(w, 0x2c385140);
	memcpy(&w, buf + 16, 4);
	assert_int_equal(w >> 24, 70);
	assert_int_equal(w & 0xffff, 0);
	assert_memory_equal(buf + 0x14, "sd1     ", 8);
	memcpy(&w, buf + 0x1c, 4);
	assert_int_equal(w, 4242);
	/* the second sector carries its own offset */
	memcpy(&w, buf + 512 + 4, 4);
	assert_int_equal(w, 0x400);
	/* bodies differ between sectors */
	assert_memory_not_equal(buf + 32, buf + 512 + 32, 480);
	assert_false(dv_header_byte_is_known(0x08));
	assert_false(dv_header_byte_is_known(0x12));
	assert_true(dv_header_byte_is_known(0x13));
	assert_true(dv_header_byte_is_known(0x14));
}

static void test_check_ok_any_time(void **state)
{
	struct dv_id id = test_id("sd1");
	static uint8_t buf[KB];
	struct dv_mismatch m;

	(void)state;
	dv_fill(buf, 8 * KB, KB, 5, &id, 1000);
	assert_int_equal(dv_check(buf, 8 * KB, KB, 5, &id, &m), 0);
	dv_fill(buf, 8 * KB, KB, 5, &id, 987654321);
	assert_int_equal(dv_check(buf, 8 * KB, KB, 5, &id, &m), 0);
}

static void test_check_bad_key(void **state)
{
	struct dv_id id = test_id("sd1");
	static uint8_t buf[KB];
	struct dv_mismatch m;

	(void)state;
	dv_fill(buf, 8 * KB, KB, 5, &id, 1000); /* the older version of the block */
	assert_int_equal(dv_check(buf, 8 * KB, KB, 6, &id, &m), 1);
	assert_int_equal(m.cls, DV_CLASS_KEY);
	assert_int_equal(m.expected_key, 6);
	assert_int_equal(m.found_key, 5);
	assert_int_equal(m.sector_idx, 0);
	assert_int_equal(m.nr_bad_sectors, 8);
	assert_int_equal(m.nr_sectors, 8);
	assert_int_equal(m.block_offset_bytes, 8 * KB);
	assert_string_equal(dv_class_id(m.cls), "key");
}

static void test_check_zeros_is_lost_write(void **state)
{
	struct dv_id id = test_id("sd1");
	static uint8_t buf[KB];
	struct dv_mismatch m;

	(void)state;
	memset(buf, 0, sizeof(buf));
	assert_int_equal(dv_check(buf, 0, KB, 9, &id, &m), 1);
	assert_int_equal(m.cls, DV_CLASS_KEY);
	assert_int_equal(m.found_key, 0);
}

static void test_check_bad_offset(void **state)
{
	struct dv_id id = test_id("sd1");
	static uint8_t buf[KB];
	struct dv_mismatch m;

	(void)state;
	dv_fill(buf, 3 * KB, KB, 9, &id, 1000); /* block 3's data at block 8 */
	assert_int_equal(dv_check(buf, 8 * KB, KB, 9, &id, &m), 1);
	assert_int_equal(m.cls, DV_CLASS_OFFSET);
	assert_int_equal(m.found_offset_bytes, 3 * KB);
}

static void test_check_wrong_sd(void **state)
{
	struct dv_id id = test_id("sd1"), other = test_id("sd2");
	static uint8_t buf[KB];
	struct dv_mismatch m;

	(void)state;
	dv_fill(buf, 8 * KB, KB, 9, &other, 1000);
	assert_int_equal(dv_check(buf, 8 * KB, KB, 9, &id, &m), 1);
	assert_int_equal(m.cls, DV_CLASS_SD);
	assert_memory_equal(m.found_name, "sd2     ", 8);
}

static void test_check_single_bit(void **state)
{
	struct dv_id id = test_id("sd1");
	static uint8_t buf[KB];
	struct dv_mismatch m;

	(void)state;
	dv_fill(buf, 8 * KB, KB, 9, &id, 1000);
	buf[3 * 512 + 300] ^= 0x10;
	assert_int_equal(dv_check(buf, 8 * KB, KB, 9, &id, &m), 1);
	assert_int_equal(m.cls, DV_CLASS_BIT);
	assert_int_equal(m.sector_idx, 3);
	assert_int_equal(m.nr_bad_sectors, 1);
	assert_int_equal(m.nr_bits, 1);
	assert_int_equal(m.line_offset, 288);
	assert_int_not_equal(m.expected_line[300 - 288], m.found_line[300 - 288]);
}

static void test_check_corrupt_body_and_header(void **state)
{
	struct dv_id id = test_id("sd1");
	static uint8_t buf[KB];
	struct dv_mismatch m;

	(void)state;
	dv_fill(buf, 8 * KB, KB, 9, &id, 1000);
	buf[1000] ^= 0xff; /* one byte, eight bits */
	assert_int_equal(dv_check(buf, 8 * KB, KB, 9, &id, &m), 1);
	assert_int_equal(m.cls, DV_CLASS_CORRUPT);
	assert_int_equal(m.sector_idx, 1);
	assert_int_equal(m.nr_bits, 8);

	dv_fill(buf, 8 * KB, KB, 9, &id, 1000);
	buf[0x14] = 'X'; /* the name in the header, the body no longer matches it */
	buf[0x15] = 'Y';
	assert_int_equal(dv_check(buf, 8 * KB, KB, 9, &id, &m), 1);
	assert_int_equal(m.cls, DV_CLASS_CORRUPT);

	dv_fill(buf, 8 * KB, KB, 9, &id, 1000);
	buf[0x09] ^= 0x0f; /* the time: its checksum no longer holds */
	assert_int_equal(dv_check(buf, 8 * KB, KB, 9, &id, &m), 1);
	assert_int_not_equal(m.cls, DV_CLASS_OK);
}

static void test_check_either(void **state)
{
	struct dv_id id = test_id("sd1");
	static uint8_t buf[KB];
	struct dv_mismatch m;

	(void)state;
	dv_fill(buf, 0, KB, 3, &id, 1);
	assert_int_equal(dv_check_either(buf, 0, KB, 3, 4, &id, &m), DV_EITHER_OLD);
	dv_fill(buf, 0, KB, 4, &id, 1);
	assert_int_equal(dv_check_either(buf, 0, KB, 3, 4, &id, &m), DV_EITHER_NEW);
	dv_fill(buf, 0, KB / 2, 3, &id, 1); /* a torn write: the first half old */
	assert_int_equal(dv_check_either(buf, 0, KB, 3, 4, &id, &m), DV_EITHER_MIXED);
	dv_fill(buf, 0, KB, 7, &id, 1);
	assert_int_equal(dv_check_either(buf, 0, KB, 3, 4, &id, &m), DV_EITHER_BAD);
	assert_int_equal(m.expected_key, 4);
	/* old content unknown (never written before): anything is old */
	memset(buf, 0xab, sizeof(buf));
	assert_int_equal(dv_check_either(buf, 0, KB, 0, 4, &id, &m), DV_EITHER_OLD);
}

static void test_map_keys_and_busy(void **state)
{
	struct dv_map m;
	uint8_t first;

	(void)state;
	assert_int_equal(dv_map_init(&m, 1 << 20, KB, 12345), 0);
	assert_int_equal(m.nr_blocks, 256);
	first = dv_map_next_key(&m, 10);
	assert_true(first >= 1 && first <= DV_KEY_MAX);
	assert_int_equal(dv_map_next_key(&m, 10), first); /* pure: same answer twice */
	m.keys[10] = 126;
	assert_int_equal(dv_map_next_key(&m, 10), 1); /* wraps 126 -> 1 */
	m.keys[10] = 7;
	assert_int_equal(dv_map_next_key(&m, 10), 8);
	m.keys[10] = 7 | DV_KEY_ERROR;
	assert_int_equal(dv_map_next_key(&m, 10), first);
	m.keys[11] = 1;
	assert_int_equal(dv_map_nr_known(&m), 1);
	/* first keys differ between blocks and between salts */
	{
		struct dv_map m2;
		int nr_same = 0, nr_block_same = 0;

		assert_int_equal(dv_map_init(&m2, 1 << 20, KB, 54321), 0);
		for (uint64_t b = 0; b < 256; b++) {
			nr_same += dv_map_next_key(&m, b) == dv_map_next_key(&m2, b);
			nr_block_same += b && dv_map_next_key(&m2, b) == dv_map_next_key(&m2, 0);
		}
		assert_true(nr_same < 20);
		assert_true(nr_block_same < 20);
		dv_map_fini(&m2);
	}
	assert_false(dv_map_is_busy(&m, 60, 10));
	dv_map_set_busy(&m, 63, 2, true);
	assert_true(dv_map_is_busy(&m, 60, 4));
	assert_true(dv_map_is_busy(&m, 64, 1));
	assert_false(dv_map_is_busy(&m, 65, 10));
	dv_map_set_busy(&m, 63, 2, false);
	assert_false(dv_map_is_busy(&m, 0, 256));
	dv_map_fini(&m);
	dv_map_fini(&m); /* safe twice */
	assert_int_equal(dv_map_init(&m, 1 << 20, 1000, 1), -EINVAL);
}

static void test_opts(void **state)
{
	struct dv_opts o = { 0 };
	char err[256];

	(void)state;
	assert_int_equal(dv_opts_cli(&o, "-vr", err, sizeof(err)), 0);
	assert_true(o.is_on && o.is_reread && !o.is_journal);
	assert_int_equal(dv_opts_cli(&o, "-vw", err, sizeof(err)), 0);
	assert_true(o.is_no_preread);
	o = (struct dv_opts){ 0 };
	assert_int_equal(dv_opts_cli(&o, "-jro", err, sizeof(err)), 0);
	assert_true(o.is_on && o.is_journal && o.is_recover && o.is_recover_only);
	assert_int_equal(dv_opts_cli(&o, "-jm", err, sizeof(err)), 0);
	assert_true(o.is_maponly);
	assert_int_equal(dv_opts_cli(&o, "-vt", err, sizeof(err)), 0);
	assert_true(o.is_time);
	assert_int_equal(dv_opts_cli(&o, "-vx", err, sizeof(err)), -EINVAL);
	assert_non_null(strstr(err, "'x' is not supported; expected -v, -vr, -vw or -vt"));
	o = (struct dv_opts){ 0 };
	assert_int_equal(dv_opts_validate_word(&o, "no_preread", err, sizeof(err)), 0);
	assert_true(o.is_on && o.is_no_preread);
	assert_int_equal(dv_opts_validate_word(&o, "time", err, sizeof(err)), 0);
	assert_true(o.is_time);
	assert_int_equal(dv_opts_journal_word(&o, "recover", err, sizeof(err)), 0);
	assert_true(o.is_journal && o.is_recover && !o.is_recover_only);
	assert_int_equal(dv_opts_journal_word(&o, "only", err, sizeof(err)), 0);
	assert_true(o.is_recover_only);
	assert_int_equal(dv_opts_journal_word(&o, "maponly", err, sizeof(err)), 0);
	assert_true(o.is_maponly);
	assert_int_equal(dv_opts_journal_word(&o, "skip_read_all", err, sizeof(err)), 0);
	assert_true(o.is_skip_read_all);
	assert_int_equal(dv_opts_journal_word(&o, "max=16k", err, sizeof(err)), 0);
	assert_int_equal(o.journal_max_bytes, 16384);
	assert_int_equal(dv_opts_journal_word(&o, "max=-1", err, sizeof(err)), 0);
	assert_int_equal(o.journal_max_bytes, 0);
}

/* The words and cuts VDbench 5.04.07 -s accepts and refuses (observed one by one). */
static void test_opts_words_as_vdbench(void **state)
{
	static const char *const v_ok[] = { "yes", "ye",     "y",
					    "no",  "n",	     "time",
					    "no_", "no_pre", "r",
					    "rea", "read",   "read_after",
					    "rep", "report", "reportdedupsets",
					    "x",   "xf",     "xfersize",
					    "i",   "ign",    "ignore_zero_reads",
					    "1",   "-1",     "1.5" };
	static const char *const v_bad[] = {
		"tim",	   "t", "Yes", "rx", "nop",	 "nopre",     "no_x", "timex",
		"reportx", "X", "n_",  "a",  "continue", "xfersizes", "xy",   "ignore_zero_readsx"
	};
	static const char *const j_ok[] = {
		"y",	   "ye",      "no",	"n",	   "nof",
		"noflush", "r",	      "rec",	"recover", "only",
		"maponly", "s",	      "skip",	"i",	   "ignore_pending",
		"5",	   "max=100", "max=1m", "max=-1"
	};
	static const char *const j_bad[] = { "m",     "map",	      "mapo",	 "o",
					     "on",    "onl",	      "max",	 "max=",
					     "max=x", "max=1.5",      "Yes",	 "x",
					     "rx",    "recover_only", "noflushx" };
	struct dv_opts o;
	char err[256];

	(void)state;
	for (size_t i = 0; i < sizeof(v_ok) / sizeof(v_ok[0]); i++) {
		o = (struct dv_opts){ 0 };
		if (dv_opts_validate_word(&o, v_ok[i], err, sizeof(err)))
			fail_msg("validate=%s refused: %s", v_ok[i], err);
	}
	for (size_t i = 0; i < sizeof(v_bad) / sizeof(v_bad[0]); i++)
		if (!dv_opts_validate_word(&o, v_bad[i], err, sizeof(err)))
			fail_msg("validate=%s accepted", v_bad[i]);
	for (size_t i = 0; i < sizeof(j_ok) / sizeof(j_ok[0]); i++) {
		o = (struct dv_opts){ 0 };
		if (dv_opts_journal_word(&o, j_ok[i], err, sizeof(err)))
			fail_msg("journal=%s refused: %s", j_ok[i], err);
	}
	for (size_t i = 0; i < sizeof(j_bad) / sizeof(j_bad[0]); i++)
		if (!dv_opts_journal_word(&o, j_bad[i], err, sizeof(err)))
			fail_msg("journal=%s accepted", j_bad[i]);
	o = (struct dv_opts){ 0 };
	assert_int_equal(dv_opts_validate_word(&o, "rea", err, sizeof(err)), 0);
	assert_true(o.is_reread);
	assert_int_equal(dv_opts_validate_word(&o, "rep", err, sizeof(err)), 0);
	assert_true(o.is_time);
	assert_int_equal(dv_opts_validate_word(&o, "n", err, sizeof(err)), 0);
	assert_false(o.is_on);
	assert_int_equal(dv_opts_validate_word(&o, "continue", err, sizeof(err)), -EINVAL);
	assert_non_null(strstr(err, "no longer supported"));
	assert_int_equal(dv_opts_journal_word(&o, "nof", err, sizeof(err)), 0);
	assert_true(o.is_noflush);
	assert_int_equal(dv_opts_journal_word(&o, "s", err, sizeof(err)), 0);
	assert_true(o.is_skip_read_all);
}

/* ---- journal ------------------------------------------------------------------------------ */

struct jfx {
	char dir[512];
	struct dv_journal_cfg cfg;
	struct dv_map map;
	char err[512];
};

/* Forgets the map's keys, then loads them back from the journal (it must load). */
static void journal_reload(struct jfx *fx, struct dv_recovered *r)
{
	memset(fx->map.keys, 0, fx->map.nr_blocks);
	assert_int_equal(dv_journal_load(&fx->cfg, &fx->map, r, fx->err, sizeof(fx->err)), 0);
}

static int jfx_setup(void **state)
{
	struct jfx *fx = calloc(1, sizeof(*fx));
	const char *tmp = getenv("TMPDIR");

	if (!fx)
		return -1;
	snprintf(fx->dir, sizeof(fx->dir), "%s/ioramp-dv.XXXXXX", tmp && *tmp ? tmp : "/tmp");
	if (!mkdtemp(fx->dir))
		return -1;
	fx->cfg = (struct dv_journal_cfg){ .dir = fx->dir, .sd_name = "sd1", .owner = 99 };
	if (dv_map_init(&fx->map, 1 << 20, KB, 1))
		return -1;
	*state = fx;
	return 0;
}

static int jfx_teardown(void **state)
{
	struct jfx *fx = *state;
	char cmd[600];

	dv_map_fini(&fx->map);
	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", fx->dir);
	if (system(cmd))
		return -1;
	free(fx);
	return 0;
}

static void test_journal_replay(void **state)
{
	struct jfx *fx = *state;
	struct dv_journal *j = NULL;
	struct dv_recovered r;
	struct dv_map back;

	fx->map.keys[1] = 5;
	fx->map.keys[2] = 9 | DV_KEY_ERROR;
	assert_int_equal(dv_journal_write(&j, &fx->cfg, &fx->map, fx->err, sizeof(fx->err)), 0);
	/* block 1: 5 -> 6 completed; block 3: new write of 40 in flight; block 4: failed write */
	assert_int_equal(dv_journal_add(j, DV_J_BEFORE, 1, 6), 0);
	assert_int_equal(dv_journal_add(j, DV_J_BEFORE, 3, 40), 0);
	assert_int_equal(dv_journal_flush(j), 0);
	assert_int_equal(dv_journal_add(j, DV_J_AFTER, 1, 6), 0);
	assert_int_equal(dv_journal_add(j, DV_J_BEFORE, 4, 11), 0);
	assert_int_equal(dv_journal_add(j, DV_J_AFTER, 4, 0), 0);
	assert_int_equal(dv_journal_flush(j), 0);
	assert_int_equal(dv_journal_nr_records(j), 2);
	dv_journal_close(j);

	assert_int_equal(dv_map_init(&back, 1 << 20, KB, 2), 0);
	assert_int_equal(dv_journal_load(&fx->cfg, &back, &r, fx->err, sizeof(fx->err)), 0);
	assert_false(r.is_from_backup);
	assert_int_equal(r.owner, 99);
	assert_int_equal(r.nr_records, 2);
	assert_int_equal(back.keys[1], 6);
	assert_int_equal(back.keys[2], 9 | DV_KEY_ERROR);
	assert_int_equal(back.keys[3], 0);
	assert_int_equal(back.keys[4], 0);
	assert_int_equal(r.nr_pending, 1);
	assert_int_equal(r.pending[0].block, 3);
	assert_int_equal(r.pending[0].old_key, 0);
	assert_int_equal(r.pending[0].new_key, 40);
	free(r.pending);
	dv_map_fini(&back);
}

/* Many entries span several records; a torn last record ends the journal there. */
static void test_journal_many_and_torn_tail(void **state)
{
	struct jfx *fx = *state;
	struct dv_journal *j = NULL;
	struct dv_recovered r;
	char path[600];
	struct stat st;
	int fd;

	assert_int_equal(dv_journal_write(&j, &fx->cfg, &fx->map, fx->err, sizeof(fx->err)), 0);
	for (uint64_t b = 0; b < 200; b++) {
		assert_int_equal(dv_journal_add(j, DV_J_BEFORE, b, 2), 0);
		assert_int_equal(dv_journal_add(j, DV_J_AFTER, b, 2), 0);
	}
	assert_int_equal(dv_journal_flush(j), 0);
	assert_int_equal(dv_journal_add(j, DV_J_BEFORE, 250, 3), 0);
	assert_int_equal(dv_journal_add(j, DV_J_AFTER, 250, 3), 0);
	assert_int_equal(dv_journal_flush(j), 0);
	dv_journal_close(j);
	journal_reload(fx, &r);
	assert_int_equal(fx->map.keys[199], 2);
	assert_int_equal(fx->map.keys[250], 3);
	assert_int_equal(r.nr_pending, 0);
	free(r.pending);

	/* damage the last record: its entries are lost, the earlier ones stay */
	snprintf(path, sizeof(path), "%s/sd1.jnl", fx->dir);
	assert_int_equal(stat(path, &st), 0);
	fd = open(path, O_WRONLY);
	assert_true(fd >= 0);
	assert_int_equal(pwrite(fd, "x", 1, st.st_size - 100), 1);
	close(fd);
	journal_reload(fx, &r);
	assert_int_equal(fx->map.keys[199], 2);
	assert_int_equal(fx->map.keys[250], 0);
	free(r.pending);
}

/* A checkpoint starts a new journal: old records no longer apply. */
static void test_journal_checkpoint_and_backup(void **state)
{
	struct jfx *fx = *state;
	struct dv_journal *j = NULL;
	struct dv_recovered r;
	char path[600];

	assert_int_equal(dv_journal_write(&j, &fx->cfg, &fx->map, fx->err, sizeof(fx->err)), 0);
	assert_int_equal(dv_journal_add(j, DV_J_BEFORE, 7, 20), 0);
	assert_int_equal(dv_journal_flush(j), 0);
	fx->map.keys[7] = 21;
	assert_int_equal(dv_journal_write(&j, &fx->cfg, &fx->map, fx->err, sizeof(fx->err)), 0);
	assert_int_equal(dv_journal_nr_records(j), 0);
	dv_journal_close(j);
	journal_reload(fx, &r);
	assert_int_equal(fx->map.keys[7], 21);
	assert_int_equal(r.nr_pending, 0);
	free(r.pending);

	/* without sd1.jnl the backup map is used */
	snprintf(path, sizeof(path), "%s/sd1.jnl", fx->dir);
	assert_int_equal(unlink(path), 0);
	journal_reload(fx, &r);
	assert_true(r.is_from_backup);
	assert_int_equal(fx->map.keys[7], 21);
	free(r.pending);
}

/* journal=maponly (-jm): records are not written, checkpoints still write the map. */
static void test_journal_maponly(void **state)
{
	struct jfx *fx = *state;
	struct dv_journal *j = NULL;
	struct dv_recovered r;
	char path[600];
	struct stat st;

	fx->cfg.is_maponly = true;
	assert_int_equal(dv_journal_write(&j, &fx->cfg, &fx->map, fx->err, sizeof(fx->err)), 0);
	for (uint64_t b = 0; b < 100; b++) {
		assert_int_equal(dv_journal_add(j, DV_J_BEFORE, b, 2), 0);
		assert_int_equal(dv_journal_add(j, DV_J_AFTER, b, 2), 0);
	}
	assert_false(dv_journal_has_queued(j));
	assert_int_equal(dv_journal_flush(j), 0);
	assert_int_equal(dv_journal_nr_records(j), 0);
	snprintf(path, sizeof(path), "%s/sd1.jnl", fx->dir);
	assert_int_equal(stat(path, &st), 0);
	assert_int_equal(st.st_size, 512 + 512); /* header and the 256-byte map: no records */
	fx->map.keys[9] = 2;
	assert_int_equal(dv_journal_write(&j, &fx->cfg, &fx->map, fx->err, sizeof(fx->err)), 0);
	dv_journal_close(j);
	journal_reload(fx, &r);
	assert_int_equal(fx->map.keys[9], 2);
	assert_int_equal(r.nr_records, 0);
	free(r.pending);
}

/* journal=max=N: the file never grows past N; a clear writes the map as it is and the writes
 * still in flight again, so a recovery after it knows everything. */
static void test_journal_max_clears(void **state)
{
	struct jfx *fx = *state;
	struct dv_journal *j = NULL;
	struct dv_recovered r;
	char path[600];
	struct stat st;

	fx->cfg.max_bytes = 4096; /* header and map: 1024; room for 6 records */
	assert_int_equal(dv_journal_write(&j, &fx->cfg, &fx->map, fx->err, sizeof(fx->err)), 0);
	snprintf(path, sizeof(path), "%s/sd1.jnl", fx->dir);
	assert_int_equal(dv_journal_add(j, DV_J_BEFORE, 200, 7), 0); /* in flight throughout */
	for (uint64_t b = 0; b < 100; b++) {
		assert_int_equal(dv_journal_add(j, DV_J_BEFORE, b, 5), 0);
		fx->map.keys[b] = 5; /* as the worker does: the map, then the AFTER record */
		assert_int_equal(dv_journal_add(j, DV_J_AFTER, b, 5), 0);
		assert_int_equal(dv_journal_flush(j), 0);
		assert_int_equal(stat(path, &st), 0);
		assert_true(st.st_size <= 4096);
	}
	assert_true(dv_journal_nr_clears(j) >= 10);
	assert_int_equal(dv_journal_add(j, DV_J_BEFORE, 150, 9), 0); /* in flight at the crash */
	assert_int_equal(dv_journal_flush(j), 0);
	dv_journal_close(j);

	journal_reload(fx, &r);
	for (uint64_t b = 0; b < 100; b++)
		assert_int_equal(fx->map.keys[b], 5);
	assert_int_equal(r.nr_pending, 2);
	assert_int_equal(r.pending[0].block, 150);
	assert_int_equal(r.pending[0].new_key, 9);
	assert_int_equal(r.pending[1].block, 200);
	assert_int_equal(r.pending[1].new_key, 7);
	free(r.pending);
}

static void test_journal_errors(void **state)
{
	struct jfx *fx = *state;
	struct dv_journal *j = NULL;
	struct dv_recovered r;
	struct dv_map other;
	struct dv_journal_cfg c2 = fx->cfg;

	assert_int_equal(dv_journal_load(&fx->cfg, &fx->map, &r, fx->err, sizeof(fx->err)),
			 -ENOENT);
	assert_non_null(strstr(fx->err, "sd1.jnl: no journal"));
	assert_int_equal(dv_journal_write(&j, &fx->cfg, &fx->map, fx->err, sizeof(fx->err)), 0);
	dv_journal_close(j);
	assert_int_equal(dv_map_init(&other, 2 << 20, KB, 1), 0);
	assert_int_equal(dv_journal_load(&fx->cfg, &other, &r, fx->err, sizeof(fx->err)), -EINVAL);
	assert_non_null(strstr(fx->err, "256 key blocks of 4096 bytes"));
	dv_map_fini(&other);
	c2.dir = "/nonexistent-dir";
	j = NULL;
	assert_int_equal(dv_journal_write(&j, &c2, &fx->map, fx->err, sizeof(fx->err)), -ENOENT);
	assert_non_null(strstr(fx->err, "/nonexistent-dir/sd1.jnl: cannot write"));
	dv_journal_close(j);
}

/* Journal and backup both damaged: the error names each file (it used to print the journal's
 * error twice, never sd1.map). */
static void test_journal_both_damaged(void **state)
{
	struct jfx *fx = *state;
	struct dv_journal *j = NULL;
	struct dv_recovered r;
	const char *names[] = { "sd1.jnl", "sd1.map" };
	char path[600];

	assert_int_equal(dv_journal_write(&j, &fx->cfg, &fx->map, fx->err, sizeof(fx->err)), 0);
	assert_int_equal(dv_journal_write(&j, &fx->cfg, &fx->map, fx->err, sizeof(fx->err)), 0);
	dv_journal_close(j);
	for (size_t i = 0; i < 2; i++) {
		int fd;

		snprintf(path, sizeof(path), "%s/%s", fx->dir, names[i]);
		fd = open(path, O_WRONLY);
		assert_true(fd >= 0);
		assert_int_equal(pwrite(fd, "xxxx", 4, 512 + 10), 4); /* in the map */
		close(fd);
	}
	assert_int_equal(dv_journal_load(&fx->cfg, &fx->map, &r, fx->err, sizeof(fx->err)),
			 -EINVAL);
	assert_non_null(strstr(fx->err, "sd1.jnl: damaged map; backup "));
	assert_non_null(strstr(fx->err, "sd1.map: damaged map"));
}

static bool count_error(void *ctx, const struct dv_mismatch *m)
{
	(void)m;
	++*(int *)ctx;
	return true;
}

/* The recovery pass over a file: pending writes resolved, errors classified and marked. */
static void test_validate_all(void **state)
{
	struct jfx *fx = *state;
	struct dv_id id = test_id("sd1");
	static uint8_t blk[KB];
	struct dv_validate_result res;
	struct dv_pending pend[2] = { { 5, 3, 4 }, { 6, 3, 4 } };
	char path[600];
	int fd, nr_calls = 0;

	snprintf(path, sizeof(path), "%s/data", fx->dir);
	fd = open(path, O_RDWR | O_CREAT, 0644);
	assert_true(fd >= 0);
	assert_int_equal(ftruncate(fd, 1 << 20), 0);
	for (uint64_t b = 0; b < 8; b++) {
		dv_fill(blk, b * KB, KB, 3, &id, 1);
		assert_int_equal(pwrite(fd, blk, KB, (off_t)(b * KB)), KB);
		fx->map.keys[b] = 3;
	}
	dv_fill(blk, 6 * KB, KB, 4, &id, 1); /* block 6: the pending write happened */
	assert_int_equal(pwrite(fd, blk, KB, 6 * KB), KB);
	dv_fill(blk, 2 * KB, KB, 2, &id, 1); /* block 2: a stale version */
	assert_int_equal(pwrite(fd, blk, KB, 2 * KB), KB);
	assert_int_equal(pwrite(fd, "z", 1, 7 * KB + 600), 1); /* block 7: damaged */
	fx->map.keys[100] = 9;				       /* never written on disk: zeros */
	assert_int_equal(
		dv_validate_all(fd, &fx->map, &id, pend, 2, 0, count_error, &nr_calls, &res), 0);
	assert_int_equal(nr_calls, 3);
	assert_int_equal(res.nr_validated, 9);
	assert_int_equal(res.nr_errors, 3);
	assert_int_equal(fx->map.keys[5], 3);
	assert_int_equal(fx->map.keys[6], 4);
	assert_int_equal(fx->map.keys[2], 3 | DV_KEY_ERROR);
	assert_int_equal(fx->map.keys[7], 3 | DV_KEY_ERROR);
	assert_int_equal(fx->map.keys[100], 9 | DV_KEY_ERROR);
	assert_false(dv_map_is_busy(&fx->map, 0, fx->map.nr_blocks));
	close(fd);
}

/* journal=skip_read_all: only the pending writes are read; the rest of the map is trusted. */
static void test_validate_pending_only(void **state)
{
	struct jfx *fx = *state;
	struct dv_id id = test_id("sd1");
	static uint8_t blk[KB];
	struct dv_validate_result res;
	struct dv_pending pend[1] = { { 6, 3, 4 } };
	char path[600];
	int fd, nr_calls = 0;

	snprintf(path, sizeof(path), "%s/data", fx->dir);
	fd = open(path, O_RDWR | O_CREAT, 0644);
	assert_true(fd >= 0);
	assert_int_equal(ftruncate(fd, 1 << 20), 0);
	for (uint64_t b = 0; b < 8; b++)
		fx->map.keys[b] = 3; /* on disk: zeros, all bad if read */
	dv_fill(blk, 6 * KB, KB, 4, &id, 1);
	assert_int_equal(pwrite(fd, blk, KB, 6 * KB), KB);
	assert_int_equal(dv_validate_all(fd, &fx->map, &id, pend, 1, DV_VALIDATE_PENDING_ONLY,
					 count_error, &nr_calls, &res),
			 0);
	assert_int_equal(res.nr_validated, 1);
	assert_int_equal(nr_calls, 0);
	assert_int_equal(fx->map.keys[6], 4);
	assert_int_equal(fx->map.keys[5], 3);
	close(fd);
}

#define JOURNAL_TEST(f) cmocka_unit_test_setup_teardown(f, jfx_setup, jfx_teardown)

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_id_name),
		cmocka_unit_test(test_fill_header_layout),
		cmocka_unit_test(test_check_ok_any_time),
		cmocka_unit_test(test_check_bad_key),
		cmocka_unit_test(test_check_zeros_is_lost_write),
		cmocka_unit_test(test_check_bad_offset),
		cmocka_unit_test(test_check_wrong_sd),
		cmocka_unit_test(test_check_single_bit),
		cmocka_unit_test(test_check_corrupt_body_and_header),
		cmocka_unit_test(test_check_either),
		cmocka_unit_test(test_map_keys_and_busy),
		cmocka_unit_test(test_opts),
		cmocka_unit_test(test_opts_words_as_vdbench),
		JOURNAL_TEST(test_journal_replay),
		JOURNAL_TEST(test_journal_many_and_torn_tail),
		JOURNAL_TEST(test_journal_checkpoint_and_backup),
		JOURNAL_TEST(test_journal_maponly),
		JOURNAL_TEST(test_journal_max_clears),
		JOURNAL_TEST(test_journal_errors),
		JOURNAL_TEST(test_journal_both_damaged),
		JOURNAL_TEST(test_validate_all),
		JOURNAL_TEST(test_validate_pending_only),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
