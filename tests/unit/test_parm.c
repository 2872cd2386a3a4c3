/* Unit tests of src/parm: numbers, lists and ranges, keyword abbreviation, substitution, the
 * line rules, definitions, defaults, count= replication, name resolution and error locations. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "ioramp/fs.h"
#include "ioramp/parm.h"

struct parsed {
	struct parm_config *cfg;
	struct parm_source *keep;
	struct parm_err err;
	int ret;
};

static void parse_vars(struct parsed *p, const char *text, struct parm_var *vars, size_t nr)
{
	struct parm_input in = { .vars = vars, .nr_vars = nr };

	memset(p, 0, sizeof(*p));
	p->ret =
		parm_config_read_text("t.vdb", text, strlen(text), &in, &p->cfg, &p->keep, &p->err);
}

static void parse(struct parsed *p, const char *text)
{
	parse_vars(p, text, NULL, 0);
}

static void parsed_fini(struct parsed *p)
{
	parm_config_free(p->cfg);
	parm_source_free(p->keep);
}

#define BASE "sd=sd1,lun=/tmp/f1,size=1m\nwd=wd1,sd=sd1\n"

static void test_num_suffixes_scale(void **state)
{
	struct parm_num n;

	(void)state;
	assert_int_equal(parm_num_parse("4k", PARM_UNIT_BYTES, &n), 0);
	assert_true(n.value == 4096);
	assert_int_equal(parm_num_parse("1M", PARM_UNIT_BYTES, &n), 0);
	assert_true(n.value == 1048576);
	assert_int_equal(parm_num_parse("1m", PARM_UNIT_TIME, &n), 0);
	assert_true(n.value == 60);
	assert_int_equal(parm_num_parse("2h", PARM_UNIT_TIME, &n), 0);
	assert_true(n.value == 7200);
	assert_int_equal(parm_num_parse("1.5k", PARM_UNIT_BYTES, &n), 0);
	assert_true(n.value == 1536);
	assert_int_equal(parm_num_parse("2g", PARM_UNIT_BYTES, &n), 0);
	assert_true(n.value == 2147483648.0);
	assert_int_equal(parm_num_parse("1t", PARM_UNIT_BYTES, &n), 0);
	assert_true(n.value == 1099511627776.0);
	assert_int_equal(parm_num_parse("8kb", PARM_UNIT_BYTES, &n), 0);
	assert_true(n.value == 8192);
	assert_int_equal(parm_num_parse("50%", PARM_UNIT_PLAIN, &n), 0);
	assert_true(n.value == 50 && n.is_pct);
	assert_int_equal(parm_num_parse("-1", PARM_UNIT_PLAIN, &n), 0);
	assert_true(n.value == -1);
}

static void test_num_rejects_garbage(void **state)
{
	struct parm_num n;

	(void)state;
	assert_int_equal(parm_num_parse("", PARM_UNIT_PLAIN, &n), -EINVAL);
	assert_int_equal(parm_num_parse("abc", PARM_UNIT_PLAIN, &n), -EINVAL);
	assert_int_equal(parm_num_parse("0x10", PARM_UNIT_PLAIN, &n), -EINVAL);
	assert_int_equal(parm_num_parse("nan", PARM_UNIT_PLAIN, &n), -EINVAL);
	assert_int_equal(parm_num_parse("4q", PARM_UNIT_BYTES, &n), -EINVAL);
	assert_int_equal(parm_num_parse("4k4", PARM_UNIT_BYTES, &n), -EINVAL);
	assert_int_equal(parm_num_parse("1e999", PARM_UNIT_PLAIN, &n), -EINVAL);
}

/* Parses "rd=...,forthreads=<list>" and returns the loop values. */
static int loop_values(const char *list, double *out, size_t max, struct parm_err *err)
{
	char text[512];
	struct parsed p;
	int nr;

	snprintf(text, sizeof(text), BASE "rd=rd1,wd=wd1,iorate=10,forxfersize=%s\n", list);
	parse(&p, text);
	*err = p.err;
	if (p.ret) {
		parsed_fini(&p);
		return p.ret;
	}
	nr = (int)p.cfg->rds[0].loops[0].nr;
	for (int i = 0; i < nr && (size_t)i < max; i++)
		out[i] = p.cfg->rds[0].loops[0].vals[i].value;
	parsed_fini(&p);
	return nr;
}

static void test_list_ranges_expand(void **state)
{
	double v[16];
	struct parm_err err;

	(void)state;
	assert_int_equal(loop_values("(4k-16k,4k)", v, 16, &err), 4);
	assert_true(v[0] == 4096 && v[3] == 16384);
	assert_int_equal(loop_values("(512-4k,d)", v, 16, &err), 4);
	assert_true(v[0] == 512 && v[1] == 1024 && v[3] == 4096);
	assert_int_equal(loop_values("(64k-8k,d)", v, 16, &err), 4);
	assert_true(v[0] == 65536 && v[3] == 8192);
	assert_int_equal(loop_values("(4k,8k,1m)", v, 16, &err), 3);
	assert_true(v[2] == 1048576);
	assert_int_equal(loop_values("8k", v, 16, &err), 1);
}

static void test_list_reverse_doubling_needs_dash(void **state)
{
	double v[16];
	struct parm_err err;

	(void)state;
	assert_int_equal(loop_values("(64k,1k,d)", v, 16, &err), -EINVAL);
	assert_non_null(strstr(err.msg, "mix of alpha and numeric"));
	assert_int_equal(err.loc.line, 3);
}

static void test_kw_prefixes_resolve(void **state)
{
	(void)state;
	assert_int_equal(parm_kw_lookup(PARM_SEC_WD, "xf"), PARM_KW_XFERSIZE);
	assert_int_equal(parm_kw_lookup(PARM_SEC_WD, "XFERSIZE"), PARM_KW_XFERSIZE);
	assert_int_equal(parm_kw_lookup(PARM_SEC_SD, "th"), PARM_KW_THREADS);
	assert_int_equal(parm_kw_lookup(PARM_SEC_RD, "el"), PARM_KW_ELAPSED);
	assert_int_equal(parm_kw_lookup(PARM_SEC_RD, "io"), PARM_KW_IORATE);
	assert_int_equal(parm_kw_lookup(PARM_SEC_RD, "xfersize"), PARM_KW_FORXFERSIZE);
	assert_int_equal(parm_kw_lookup(PARM_SEC_RD, "forx"), PARM_KW_FORXFERSIZE);
	assert_int_equal(parm_kw_lookup(PARM_SEC_WD, "readpct"), PARM_KW_RDPCT);
	assert_int_equal(parm_kw_lookup(PARM_SEC_WD, "writepct"), PARM_KW_WRPCT);
	assert_int_equal(parm_kw_lookup(PARM_SEC_GENERAL, "concatenate"), PARM_KW_CONCATENATESDS);
	assert_int_equal(parm_kw_lookup(PARM_SEC_WD, "x"), -EINVAL);
	assert_int_equal(parm_kw_lookup(PARM_SEC_WD, "lun"), -ENOENT);
}

static void test_substitution_replaces_and_tracks_use(void **state)
{
	struct parm_var vars[] = { { .name = "lun", .value = "/tmp/x" },
				   { .name = "n", .value = "16" } };
	struct parsed p;

	(void)state;
	parse_vars(&p, "sd=sd1,lun=$lun,threads=!n\nwd=wd1,sd=sd1\nrd=rd1,wd=wd1,iorate=10\n", vars,
		   2);
	assert_int_equal(p.ret, 0);
	assert_string_equal(p.cfg->sds[0].lun, "/tmp/x");
	assert_int_equal(p.cfg->sds[0].threads, 16);
	assert_non_null(strstr(parm_source_listing(p.cfg->src),
			       "    variable substitution: sd=sd1,lun=/tmp/x,threads=16"));
	parsed_fini(&p);
}

static void test_substitution_errors(void **state)
{
	struct parm_var unused[] = { { .name = "nothere", .value = "1" } };
	struct parsed p;

	(void)state;
	parse(&p, "sd=sd1,lun=$lun\nwd=wd1,sd=sd1\nrd=rd1,wd=wd1,iorate=10\n");
	assert_int_equal(p.ret, -EINVAL);
	assert_non_null(strstr(p.err.msg, "unknown variable substitution request"));
	assert_int_equal(p.err.loc.line, 1);
	assert_int_equal(p.err.loc.col, 12);
	parsed_fini(&p);
	/* the variable is named alone, not with the rest of the line */
	parse(&p, "sd=sd1,lun=/tmp/f,threads=$th,openflags=o_direct\nwd=wd1,sd=sd1\n"
		  "rd=rd1,wd=wd1,iorate=10\n");
	assert_int_equal(p.ret, -EINVAL);
	assert_string_equal(p.err.msg, "unknown variable substitution request: $th; expected "
				       "th=value on the command line");
	parsed_fini(&p);

	parse_vars(&p, BASE "rd=rd1,wd=wd1,iorate=10\n", unused, 1);
	assert_int_equal(p.ret, -EINVAL);
	assert_non_null(strstr(p.err.msg, "unused parameter substitution: nothere=1"));
	parsed_fini(&p);
}

static void test_lines_comments_continuation_eof(void **state)
{
	struct parsed p;

	(void)state;
	parse(&p, "* star\n# hash\n/ slash\n\n"
		  "sd=sd1,lun=/tmp/a    threads=99 is a comment\n"
		  "sd=sd2,lun=\"/tmp/with blank\",\n"
		  "   threads=3\n"
		  "wd=wd1,sd=(sd1,\n"
		  "  sd2)\n"
		  "xfersize=8k\n"
		  "rd=rd1,wd=wd1,iorate=10\n"
		  "eof\n"
		  "this is not parsed\n");
	assert_int_equal(p.ret, 0);
	assert_int_equal(p.cfg->nr_sds, 2);
	assert_int_equal(p.cfg->sds[0].threads, 8);
	assert_string_equal(p.cfg->sds[1].lun, "/tmp/with blank");
	assert_int_equal(p.cfg->sds[1].threads, 3);
	assert_int_equal(p.cfg->wds[0].nr_sd, 2);
	assert_true(p.cfg->wds[0].xfer.sizes_bytes[0] == 8192);
	parsed_fini(&p);
}

static void test_defaults_clone_into_later_definitions(void **state)
{
	struct parsed p;

	(void)state;
	parse(&p, "sd=sd1,lun=/tmp/a\n"
		  "sd=default,threads=4\n"
		  "sd=sd2,lun=/tmp/b\n"
		  "sd=sd3,lun=/tmp/c,threads=2\n"
		  "wd=default,rdpct=30\n"
		  "wd=wd1,sd=sd*\n"
		  "rd=rd1,wd=wd1,iorate=10\n");
	assert_int_equal(p.ret, 0);
	assert_int_equal(p.cfg->sds[0].threads, 8);
	assert_int_equal(p.cfg->sds[1].threads, 4);
	assert_int_equal(p.cfg->sds[2].threads, 2);
	assert_true(p.cfg->wds[0].rdpct == 30);
	assert_int_equal(p.cfg->wds[0].nr_sd, 3);
	parsed_fini(&p);
}

/* io=(max,100) is max alone, io=(100,max) an error; iorate=(max,100) two rates [290-292]. */
static void test_abbreviated_iorate_list(void **state)
{
	struct parsed p;

	(void)state;
	parse(&p, BASE "rd=rd1,wd=wd1,io=(max,100)\nrd=rd2,wd=wd1,iorate=(max,100)\n");
	assert_int_equal(p.ret, 0);
	assert_int_equal(p.cfg->rds[0].nr_rates, 1);
	assert_int_equal(p.cfg->rds[0].rates[0].kind, PARM_RATE_MAX);
	assert_int_equal(p.cfg->rds[1].nr_rates, 2);
	parsed_fini(&p);
	parse(&p, BASE "rd=rd1,wd=wd1,io=(100,max)\n");
	assert_int_equal(p.ret, -EINVAL);
	assert_non_null(strstr(p.err.msg, "iorate= abbreviated"));
	parsed_fini(&p);
}

/* seekpct words as VDbench 5.04.07 reads them [286-289]: which seek each one is. */
static void test_seekpct_words_resolve(void **state)
{
	struct parsed p;

	(void)state;
	parse(&p, "sd=sd1,lun=/tmp/a\nwd=default,sd=sd1\n"
		  "wd=w1,seekpct=ra\nwd=w2,seekpct=seqn\nwd=w3,seekpct=seqnzx\n"
		  "wd=w4,seekpct=EOF\nwd=w5,seekpct=(poi,5)\n"
		  "rd=rd1,wd=w*,iorate=10\n");
	assert_int_equal(p.ret, 0);
	assert_true(p.cfg->wds[0].seek == PARM_SEEK_PCT && p.cfg->wds[0].seekpct == 100);
	assert_true(p.cfg->wds[1].seek == PARM_SEEK_PCT && p.cfg->wds[1].seekpct == 0);
	assert_true(p.cfg->wds[2].seek == PARM_SEEK_SEQNZ);
	assert_true(p.cfg->wds[3].seek == PARM_SEEK_EOF);
	assert_true(p.cfg->wds[4].seek == PARM_SEEK_POISSON && p.cfg->wds[4].seekpct == 5);
	parsed_fini(&p);
	parse(&p, "sd=sd1,lun=/tmp/a\nwd=wd1,sd=sd1,seekpct=SEQ\nrd=rd1,wd=wd1,iorate=10\n");
	assert_int_equal(p.ret, -EINVAL);
	assert_int_equal(p.err.loc.line, 2);
	parsed_fini(&p);
}

static void test_count_replicates_names_and_luns(void **state)
{
	struct parsed p;

	(void)state;
	parse(&p, "sd=sd,lun=/tmp/f,count=(1,3)\n"
		  "sd=x%02d,lun=/tmp/g%02d,count=(0,2)\n"
		  "wd=wd1,sd=(sd1-sd3)\nrd=rd1,wd=wd1,iorate=10\n");
	assert_int_equal(p.ret, 0);
	assert_int_equal(p.cfg->nr_sds, 5);
	assert_string_equal(p.cfg->sds[0].name, "sd1");
	assert_string_equal(p.cfg->sds[2].lun, "/tmp/f3");
	assert_string_equal(p.cfg->sds[3].name, "x00");
	assert_string_equal(p.cfg->sds[4].lun, "/tmp/g01");
	assert_int_equal(p.cfg->wds[0].nr_sd, 3);
	parsed_fini(&p);
}

static void test_order_error_names_the_order(void **state)
{
	struct parsed p;

	(void)state;
	parse(&p, "sd=sd1,lun=/tmp/a\nwd=wd1,sd=sd1\nsd=sd2,lun=/tmp/b\n"
		  "rd=rd1,wd=wd1,iorate=10\n");
	assert_int_equal(p.ret, -EINVAL);
	assert_non_null(strstr(p.err.msg, "unknown keyword: lun in wd=wd1"));
	assert_non_null(strstr(p.err.msg, "General, HD, SD, WD, RD"));
	assert_int_equal(p.err.loc.line, 3);
	assert_int_equal(p.err.loc.col, 8);
	assert_string_equal(p.err.loc.text, "sd=sd2,lun=/tmp/b");
	parsed_fini(&p);
}

static void test_bad_values_point_at_the_value(void **state)
{
	struct parsed p;

	(void)state;
	parse(&p, "sd=sd1,lun=/tmp/a,threads=zero\nwd=wd1,sd=sd1\nrd=rd1,wd=wd1,iorate=1\n");
	assert_int_equal(p.ret, -EINVAL);
	assert_int_equal(p.err.loc.line, 1);
	assert_int_equal(p.err.loc.col, 27);
	assert_non_null(strstr(p.err.msg, "threads=zero"));
	parsed_fini(&p);

	parse(&p, BASE "wd=wd2,sd=sd1,xfersize=(4k,60,8k,50)\nrd=rd1,wd=wd1,iorate=1\n");
	assert_int_equal(p.ret, -EINVAL);
	assert_non_null(strstr(p.err.msg, "add up to 110"));
	parsed_fini(&p);

	parse(&p, BASE "rd=rd1,wd=wd9,iorate=1\n");
	assert_int_equal(p.ret, -EINVAL);
	assert_non_null(strstr(p.err.msg, "wd=wd9"));
	parsed_fini(&p);
}

/* File-system mode: typed fsd/fwd/rd, count= replication, defaults; no mixing with sd=. */
static void test_fs_mode(void **state)
{
	struct parsed p;

	(void)state;
	parse(&p, "fsd=default,depth=2,width=3,files=4,size=(4k,50,8k,50)\n"
		  "fsd=f,anchor=/tmp/x,count=(1,2)\n"
		  "fwd=w1,fsd=f*,operation=getattr,threads=3\n"
		  "rd=rd1,fwd=w1,fwdrate=(10,20),format=(yes,once),forthreads=(1,2)\n");
	assert_int_equal(p.ret, 0);
	assert_non_null(p.cfg->fs);
	assert_int_equal(p.cfg->fs->nr_fsds, 2);
	assert_string_equal(p.cfg->fs->fsds[1].anchor, "/tmp/x2");
	assert_int_equal(p.cfg->fs->fsds[0].depth, 2);
	assert_int_equal(p.cfg->fs->fsds[0].sizes.nr, 2);
	assert_int_equal(p.cfg->fs->fwds[0].nr_fsd, 2);
	assert_int_equal(p.cfg->fs->fwds[0].op, FS_OP_GETATTR);
	assert_int_equal(p.cfg->fs->rds[0].nr_rates, 2);
	assert_int_equal(p.cfg->fs->rds[0].format, FS_FMT_YES | FS_FMT_ONCE);
	assert_int_equal(p.cfg->fs->rds[0].nr_loops, 1);
	parsed_fini(&p);
	parse(&p, "fsd=fsd1,anchor=/tmp/x,size=4k\n");
	assert_int_equal(p.ret, -EINVAL);
	assert_non_null(strstr(p.err.msg, "no run definition"));
	parsed_fini(&p);
	parse(&p, "sd=sd1,lun=/tmp/a\nfsd=fsd1,anchor=/tmp/x\n");
	assert_int_equal(p.ret, -EINVAL);
	assert_non_null(strstr(p.err.msg, "does not mix"));
	parsed_fini(&p);
}

static void test_rd_without_wd_clones_wd_default(void **state)
{
	struct parsed p;

	(void)state;
	parse(&p, "sd=sd1,lun=/tmp/a\nwd=default,xfersize=8k\n"
		  "rd=rd1,sd=sd1,iorate=max,rdpct=70\n");
	assert_int_equal(p.ret, 0);
	assert_non_null(p.cfg->rds[0].own_wd);
	assert_true(p.cfg->rds[0].own_wd->xfer.sizes_bytes[0] == 8192);
	assert_int_equal(p.cfg->rds[0].own_wd->nr_sd, 1);
	assert_int_equal(p.cfg->rds[0].nr_loops, 1);
	assert_int_equal(p.cfg->rds[0].loops[0].kw, PARM_KW_FORRDPCT);
	parsed_fini(&p);
}

static void test_kw_tables_follow_vdbench_order(void **state)
{
	(void)state;
	/* FINDINGS §4: the same prefix means different keywords per section */
	assert_int_equal(parm_kw_lookup(PARM_SEC_WD, "st"), PARM_KW_STRIDE);
	assert_int_equal(parm_kw_lookup(PARM_SEC_WD, "stre"), PARM_KW_STREAMS);
	assert_int_equal(parm_kw_lookup(PARM_SEC_WD, "ho"), PARM_KW_HOTBAND);
	assert_int_equal(parm_kw_lookup(PARM_SEC_WD, "hos"), PARM_KW_HOST);
	assert_int_equal(parm_kw_lookup(PARM_SEC_WD, "re"), PARM_KW_RDPCT);
	assert_int_equal(parm_kw_lookup(PARM_SEC_WD, "us"), -ENOENT);
	assert_int_equal(parm_kw_lookup(PARM_SEC_SD, "st"), PARM_KW_STREAMS);
	assert_int_equal(parm_kw_lookup(PARM_SEC_SD, "re"), PARM_KW_REPLAY);
	assert_int_equal(parm_kw_lookup(PARM_SEC_RD, "st"), PARM_KW_STOPCURVE);
	assert_int_equal(parm_kw_lookup(PARM_SEC_RD, "sta"), PARM_KW_STARTCMD);
	assert_int_equal(parm_kw_lookup(PARM_SEC_RD, "fo"), PARM_KW_FORXFERSIZE);
	assert_int_equal(parm_kw_lookup(PARM_SEC_RD, "co"), PARM_KW_FORCOMPRATIO);
	assert_int_equal(parm_kw_lookup(PARM_SEC_RD, "compre"), PARM_KW_FORCOMPRESSION);
	assert_int_equal(parm_kw_lookup(PARM_SEC_RD, "op"), PARM_KW_OPERATION);
	assert_int_equal(parm_kw_lookup(PARM_SEC_RD, "open"), PARM_KW_OPENFLAGS);
	assert_int_equal(parm_kw_lookup(PARM_SEC_RD, "ma"), -ENOENT);
	assert_int_equal(parm_kw_lookup(PARM_SEC_RD, "maxdata"), PARM_KW_MAXDATA);
	assert_int_equal(parm_kw_lookup(PARM_SEC_RD, "readpct"), -ENOENT);
	assert_int_equal(parm_kw_lookup(PARM_SEC_GENERAL, "fo"), PARM_KW_FORMATXFERSIZE);
	assert_int_equal(parm_kw_lookup(PARM_SEC_GENERAL, "formats"), PARM_KW_FORMATSDS);
	assert_int_equal(parm_kw_lookup(PARM_SEC_GENERAL, "sta"), -ENOENT);
	assert_int_equal(parm_kw_lookup(PARM_SEC_GENERAL, "en"), -ENOENT);
	assert_int_equal(parm_kw_lookup(PARM_SEC_GENERAL, "start_cmd"), PARM_KW_STARTCMD);
	assert_int_equal(parm_kw_lookup(PARM_SEC_HD, "vd"), PARM_KW_VDBENCH);
}

/* Parses text and expects an error on line with msg in it. */
static void expect_error(const char *text, uint32_t line, const char *msg)
{
	struct parsed p;

	parse(&p, text);
	assert_int_equal(p.ret, -EINVAL);
	if (!strstr(p.err.msg, msg))
		fail_msg("'%s' not in '%s'", msg, p.err.msg);
	assert_int_equal(p.err.loc.line, line);
	parsed_fini(&p);
}

static void test_lexer_rules(void **state)
{
	struct parsed p;

	(void)state;
	expect_error(BASE "rd=rd1,wd=wd1,iorate=10,,elapsed=4\n", 3, "empty parameter");
	expect_error(BASE "rd=rd1,wd=wd1,iorate=10,forthreads=(1,2))\n", 3, "unmatched");
	expect_error(BASE "rd=rd1,wd=wd1,iorate=10,elapsed=4\tx\n", 3, "tab");
	expect_error(BASE "rd=rd1,wd=wd1,iorate=10,elapsed=\n", 3, "has no value");
	expect_error(BASE "rd=rd1,wd=wd1,iorate=10,startcmd=\"echo\n", 3, "double quote");
	/* an open list is closed at the end of the line; ((a,b)) and (1,,2) are flat */
	parse(&p, BASE "rd=rd1,wd=wd1,iorate=10,forthreads=(1,,2),forxfersize=((4k,8k)\n");
	assert_int_equal(p.ret, 0);
	assert_int_equal(p.cfg->rds[0].loops[0].nr, 2);
	assert_int_equal(p.cfg->rds[0].loops[1].nr, 2);
	parsed_fini(&p);
}

static void test_list_quirks(void **state)
{
	double v[16];
	struct parm_err err;

	(void)state;
	/* FINDINGS §5, §6: ranges take the next item as their step and mix with values */
	assert_int_equal(loop_values("(1k,4k-8k,2k,16k)", v, 16, &err), 5);
	assert_true(v[1] == 4096 && v[3] == 8192 && v[4] == 16384);
	assert_int_equal(loop_values("(8k-2k,1k)", v, 16, &err), 1);
	assert_int_equal(loop_values("(2k-3k,1.5k)", v, 16, &err), 1);
	/* a leading negative item is 0 and N, one token less then starts an item; a later -N
	 * ends a range from the item before it, as VDbench 5.04.07 reads it (observed) */
	assert_int_equal(loop_values("(-2,4k,8k)", v, 16, &err), -EINVAL); /* 1 is not 512 */
	assert_int_equal(loop_values("(4k,-1,8k)", v, 16, &err), 1);
	assert_int_equal(loop_values("(4k,-16k,4k)", v, 16, &err), 4);
	assert_true(v[0] == 4096 && v[3] == 16384);
	assert_int_equal(loop_values("(4k,-16k)", v, 16, &err), -EINVAL);
	assert_non_null(strstr(err.msg, "no step"));
	assert_int_equal(loop_values("(1k-4k)", v, 16, &err), -EINVAL);
	assert_non_null(strstr(err.msg, "no step"));
	assert_int_equal(loop_values("(4k-4k)", v, 16, &err), -EINVAL);
	/* descending without a step: the from value alone [280] */
	assert_int_equal(loop_values("(2k,64k-8k)", v, 16, &err), 2);
	assert_true(v[0] == 2048 && v[1] == 65536);
	assert_int_equal(loop_values("(1k-4k,0)", v, 16, &err), -EINVAL);
	assert_int_equal(loop_values("(0-4k,d)", v, 16, &err), -EINVAL);
	assert_int_equal(loop_values("(4k,bad)", v, 16, &err), -EINVAL);
	assert_non_null(strstr(err.msg, "mix of alpha and numeric"));
}

static void test_count_masks_order_and_duplicates(void **state)
{
	struct parsed p;

	(void)state;
	parse(&p, "sd=a%x,lun=/tmp/l*,count=(10,2)\nsd=b,lun=/tmp/b\n"
		  "sd=c%5s,lun=/tmp/c%03d,count=(7,1)\nwd=wd1,sd=*\nrd=rd1,wd=wd1,iorate=10\n");
	assert_int_equal(p.ret, 0);
	assert_int_equal(p.cfg->nr_sds, 4);
	/* count= SDs move behind the others (FINDINGS §1.3) */
	assert_string_equal(p.cfg->sds[0].name, "b");
	assert_string_equal(p.cfg->sds[1].name, "aa");
	assert_string_equal(p.cfg->sds[1].lun, "/tmp/l10");
	assert_string_equal(p.cfg->sds[2].name, "ab");
	assert_string_equal(p.cfg->sds[3].name, "c    7");
	assert_string_equal(p.cfg->sds[3].lun, "/tmp/c007");
	parsed_fini(&p);

	expect_error("sd=x%q,lun=/tmp/x,count=(1,2)\nwd=wd1,sd=*\nrd=rd1,wd=wd1,iorate=1\n", 1,
		     "mask");
	expect_error("sd=sd1,lun=/tmp/a\nsd=sd,lun=/tmp/s,count=(0,3)\nwd=wd1,sd=*\n"
		     "rd=rd1,wd=wd1,iorate=1\n",
		     2, "only be defined once: sd=sd1");
	expect_error("sd=default,lun=/tmp/a\nsd=sd1\nwd=wd1,sd=*\nrd=rd1,wd=wd1,iorate=1\n", 1,
		     "sd=default");
}

static void test_substitution_order_and_leftovers(void **state)
{
	struct parm_var a_ab[] = { { .name = "a", .value = "1" }, { .name = "ab", .value = "2" } };
	struct parm_var ab_a[] = { { .name = "ab", .value = "2" }, { .name = "a", .value = "1" } };
	const char *text = BASE "rd=rd1,wd=wd1,iorate=10,forthreads=($ab,$a)\n";
	struct parsed p;

	(void)state;
	/* plain text replacement in command-line order (FINDINGS §13) */
	parse_vars(&p, text, a_ab, 2);
	assert_int_equal(p.ret, -EINVAL);
	assert_non_null(strstr(p.err.msg, "unused parameter substitution: ab=2"));
	parsed_fini(&p);
	parse_vars(&p, text, ab_a, 2);
	assert_int_equal(p.ret, 0);
	assert_true(p.cfg->rds[0].loops[0].vals[0].value == 2);
	parsed_fini(&p);
	/* a leftover is only an error right after '=' */
	parse(&p, "sd=sd1,lun=/tmp/f$x\nwd=wd1,sd=sd1\nrd=rd1,wd=wd1,iorate=10\n");
	assert_int_equal(p.ret, 0);
	assert_string_equal(p.cfg->sds[0].lun, "/tmp/f$x");
	parsed_fini(&p);
	expect_error(BASE "rd=rd1,wd=wd1,iorate=!rate\n", 3, "unknown variable substitution");
}

/* Writes text to dir/name. */
static void write_file(const char *dir, const char *name, const char *text)
{
	char path[512];
	FILE *f;

	snprintf(path, sizeof(path), "%s/%s", dir, name);
	f = fopen(path, "w");
	assert_non_null(f);
	fputs(text, f);
	fclose(f);
}

static void test_include_lookup_and_nesting(void **state)
{
	char dir[] = "/tmp/ioramp-test-parm-XXXXXX", sub[600], file[700];
	const char *files[1] = { file };
	struct parm_input in = { .files = files, .nr_files = 1 };
	struct parsed p;

	(void)state;
	assert_non_null(mkdtemp(dir));
	snprintf(sub, sizeof(sub), "%s/sub", dir);
	assert_int_equal(mkdir(sub, 0755), 0);
	/* found in the parent of the including file's directory, not in that directory */
	write_file(dir, "ioramp-t-inc.vdb", "rd=rd1,wd=wd1,iorate=10\n");
	write_file(sub, "p.vdb", BASE "include=ioramp-t-inc.vdb\n");
	snprintf(file, sizeof(file), "%s/p.vdb", sub);
	memset(&p, 0, sizeof(p));
	p.ret = parm_config_read(&in, &p.cfg, &p.keep, &p.err);
	assert_int_equal(p.ret, 0);
	assert_int_equal(p.cfg->nr_rds, 1);
	parsed_fini(&p);
	/* an include inside an included file: the error is at the outer include= */
	write_file(dir, "ioramp-t-inc.vdb", "include=other.vdb\n");
	memset(&p, 0, sizeof(p));
	p.ret = parm_config_read(&in, &p.cfg, &p.keep, &p.err);
	assert_int_equal(p.ret, -EINVAL);
	assert_non_null(strstr(p.err.msg, "cannot be nested"));
	assert_int_equal(p.err.loc.line, 3);
	parsed_fini(&p);
	write_file(sub, "p.vdb", BASE "include=ioramp-t-none.vdb trailing\n");
	memset(&p, 0, sizeof(p));
	p.ret = parm_config_read(&in, &p.cfg, &p.keep, &p.err);
	assert_int_equal(p.ret, -EINVAL);
	assert_non_null(strstr(p.err.msg, "include=ioramp-t-none.vdb trailing: file not found"));
	parsed_fini(&p);
	snprintf(file, sizeof(file), "rm -r %s", dir);
	assert_int_equal(system(file), 0);
}

static void test_rd_iorate_sd_modes_and_checks(void **state)
{
	struct parsed p;

	(void)state;
	/* the loop is the last list of 2+ values, the shown rate the last iorate= ([201]) */
	parse(&p, BASE "rd=rd1,wd=wd1,iorate=(10,20),iorate=30,sd=setsof3\n");
	assert_int_equal(p.ret, 0);
	assert_int_equal(p.cfg->rds[0].nr_rates, 2);
	assert_true(p.cfg->rds[0].shown_rate.value == 30);
	assert_int_equal(p.cfg->rds[0].sd_mode, PARM_SD_SETS);
	assert_int_equal(p.cfg->rds[0].sd_set_size, 3);
	parsed_fini(&p);

	expect_error(BASE "rd=rd1,wd=wd1,iorate=(10,curve)\n", 3, "curve must be alone");
	expect_error(BASE "rd=rd1,wd=wd1,iorate=10,seekpct=(1,2)\n", 3, "single value");
	expect_error(BASE "rd=rd1,wd=wd1,iorate=10,forcompression=(50,0)\n", 3, "compression=0");
	expect_error(BASE "rd=rd1,wd=wd1,iorate=10\nrd=rd1,wd=wd1,iorate=20\n", 4,
		     "only be defined once: rd=rd1");
	expect_error(BASE "rd=rd1,wd=(wd1,wd1),iorate=10\n", 3, "more than once");
	expect_error("report=yes\n" BASE "rd=rd1,wd=wd1,iorate=10\n", 1, "invalid report=yes");
	expect_error("timeout=(x,abort)\n" BASE "rd=rd1,wd=wd1,iorate=10\n", 1, "timeout");
	expect_error(BASE "wd=wd2,sd=sd1,host=h9\nrd=rd1,wd=wd2,iorate=10\n", 3, "host=h9");
	expect_error("hd=default,mount=abc\n" BASE "rd=rd1,wd=wd1,iorate=10\n", 1, "mount=abc");
}

/* 100,000 continuation lines: a list of that many values, then that many items on one logical
 * line. The lexer grew its arrays one element per realloc, seconds under ASan; it doubles them. */
static void test_lexer_many_continuations(void **state)
{
	enum { NR = 100000 };
	size_t cap = 200 + (size_t)NR * 16, len;
	char *text = malloc(cap);
	struct parsed p;

	(void)state;
	assert_non_null(text);
	len = (size_t)snprintf(text, cap, BASE "rd=rd1,wd=wd1,iorate=10,forthreads=(1,\n");
	for (int i = 0; i < NR; i++)
		len += (size_t)snprintf(text + len, cap - len, "%d,\n", i % 9 + 1);
	snprintf(text + len, cap - len, "3)\n");
	parse(&p, text);
	assert_int_equal(p.ret, 0);
	assert_int_equal(p.cfg->rds[0].loops[0].nr, NR + 2);
	parsed_fini(&p);
	len = (size_t)snprintf(text, cap, BASE "rd=rd1,wd=wd1,iorate=10,\n");
	for (int i = 0; i < NR; i++)
		len += (size_t)snprintf(text + len, cap - len, "pause=%d,\n", i % 9 + 1);
	snprintf(text + len, cap - len, "elapsed=10\n");
	parse(&p, text);
	assert_int_equal(p.ret, 0);
	assert_int_equal(p.cfg->nr_rds, 1);
	parsed_fini(&p);
	free(text);
}

/* The one "did you mean" helper: a swap of neighbours is one edit, case is ignored, and a word
 * far from every name gets no suggestion. */
static void test_suggest_nearest_name(void **state)
{
	const char *const subs[] = { "parseflat", "trace", "report", "suite", "demo" };

	(void)state;
	assert_int_equal(parm_edit_distance("thraeds", "threads"), 1);
	assert_int_equal(parm_edit_distance("SUTE", "suite"), 1);
	assert_int_equal(parm_edit_distance("", "abc"), 3);
	assert_int_equal(parm_edit_distance("kitten", "sitting"), 3);
	assert_string_equal(parm_suggest("sute", subs, 5), "suite");
	assert_string_equal(parm_suggest("raport", subs, 5), "report");
	assert_null(parm_suggest("xyzzy", subs, 5));
	assert_null(parm_suggest("suite", subs, 5)); /* itself is no suggestion */
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_num_suffixes_scale),
		cmocka_unit_test(test_num_rejects_garbage),
		cmocka_unit_test(test_list_ranges_expand),
		cmocka_unit_test(test_list_reverse_doubling_needs_dash),
		cmocka_unit_test(test_kw_prefixes_resolve),
		cmocka_unit_test(test_substitution_replaces_and_tracks_use),
		cmocka_unit_test(test_substitution_errors),
		cmocka_unit_test(test_lines_comments_continuation_eof),
		cmocka_unit_test(test_defaults_clone_into_later_definitions),
		cmocka_unit_test(test_seekpct_words_resolve),
		cmocka_unit_test(test_abbreviated_iorate_list),
		cmocka_unit_test(test_count_replicates_names_and_luns),
		cmocka_unit_test(test_order_error_names_the_order),
		cmocka_unit_test(test_bad_values_point_at_the_value),
		cmocka_unit_test(test_fs_mode),
		cmocka_unit_test(test_rd_without_wd_clones_wd_default),
		cmocka_unit_test(test_kw_tables_follow_vdbench_order),
		cmocka_unit_test(test_lexer_rules),
		cmocka_unit_test(test_list_quirks),
		cmocka_unit_test(test_count_masks_order_and_duplicates),
		cmocka_unit_test(test_substitution_order_and_leftovers),
		cmocka_unit_test(test_include_lookup_and_nesting),
		cmocka_unit_test(test_rd_iorate_sd_modes_and_checks),
		cmocka_unit_test(test_lexer_many_continuations),
		cmocka_unit_test(test_suggest_nearest_name),
	};

	return cmocka_run_group_tests_name("parm", tests, NULL, NULL);
}
