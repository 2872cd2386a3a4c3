/* Unit tests of src/cluster (no MPI needed): hd= mapping of ranks to hosts, SD host=/lun=
 * pairs and WD host=, the thread split against what VDbench 5.04.07 was observed to do
 * (doc/cluster.md), a run's share and rate division, the parameter-text record and replay,
 * and counter banks packed for the wire. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "ioramp/cluster.h"
#include "ioramp/parm.h"
#include "ioramp/plan.h"
#include "ioramp/stats.h"

struct setup {
	struct parm_config *cfg;
	struct parm_source *keep;
	struct plan *plan;
	struct clu_map map;
	struct parm_err err;
	int ret;
};

static void build(struct setup *s, const char *text, char *const *names, uint32_t nr)
{
	struct parm_input in = { 0 };

	memset(s, 0, sizeof(*s));
	s->ret =
		parm_config_read_text("c.vdb", text, strlen(text), &in, &s->cfg, &s->keep, &s->err);
	if (!s->ret)
		s->ret = plan_build(s->cfg, &s->plan, &s->err);
	if (!s->ret)
		s->ret = clu_map_build(s->cfg, names, nr, &s->map, &s->err);
}

static void setup_fini(struct setup *s)
{
	clu_map_fini(&s->map);
	plan_free(s->plan);
	parm_config_free(s->cfg);
	parm_source_free(s->keep);
}

#define RUN "wd=wd1,sd=sd*\nrd=rd1,wd=wd1,iorate=100,elapsed=2,interval=1\n"

static void test_map_without_hd_groups_by_machine(void **state)
{
	char *names[] = { "n1", "n2", "n1", "n2.example.com" };
	struct setup s;

	(void)state;
	build(&s, "sd=sd1,lun=/tmp/x\n" RUN, names, 4);
	assert_int_equal(s.ret, 0);
	assert_int_equal(s.map.nr_hosts, 3); /* by exact name: n2 and its FQDN differ here */
	assert_string_equal(s.map.hosts[0].label, "n1");
	assert_int_equal(s.map.hosts[0].nr_ranks, 2);
	assert_int_equal(s.map.hosts[0].ranks[1], 2);
	assert_int_equal(s.map.slave_of[2], 1);
	assert_int_equal(s.map.host_of[1], 1);
	setup_fini(&s);
}

static void test_map_hd_by_system_then_in_order(void **state)
{
	char *names[] = { "n1", "n2", "n2", "n3", "n1" };
	struct setup s;
	char buf[64];

	(void)state;
	/* hb names its machine: it takes n2's ranks first; ha and hc take what is left, in
	 * order */
	build(&s,
	      "hd=default,jvms=2\nhd=ha\nhd=hb,system=n2.example.com\nhd=hc,jvms=1\n"
	      "sd=sd1,lun=/tmp/x\n" RUN,
	      names, 5);
	assert_int_equal(s.ret, 0);
	assert_int_equal(s.map.nr_hosts, 3);
	assert_int_equal(s.map.hosts[1].ranks[0], 1);
	assert_int_equal(s.map.hosts[1].ranks[1], 2);
	assert_int_equal(s.map.hosts[0].ranks[0], 0);
	assert_int_equal(s.map.hosts[0].ranks[1], 3);
	assert_int_equal(s.map.hosts[2].ranks[0], 4);
	assert_string_equal(s.map.hosts[1].system, "n2");
	clu_slave_name(&s.map, 3, buf, sizeof(buf));
	assert_string_equal(buf, "ha-1");
	setup_fini(&s);
}

static void test_map_localhost_and_shortage(void **state)
{
	char *names[] = { "n1", "n2", "n1" };
	struct setup s;

	(void)state;
	build(&s, "hd=localhost,jvms=2\nsd=sd1,lun=/tmp/x\n" RUN, names, 3);
	assert_int_equal(s.ret, 0);
	assert_int_equal(s.map.hosts[0].ranks[0], 0);
	assert_int_equal(s.map.hosts[0].ranks[1], 2); /* rank 0's machine, not rank 1's */
	assert_int_equal(s.map.host_of[1], -1);
	setup_fini(&s);

	build(&s, "hd=ha,system=n2,jvms=2\nsd=sd1,lun=/tmp/x\n" RUN, names, 3);
	assert_int_equal(s.ret, -EINVAL);
	assert_int_equal(s.err.loc.line, 1);
	assert_string_equal(s.err.msg,
			    "hd=ha needs 2 ranks on n2 (jvms=2) and finds 1 free of 3; expected "
			    "more ranks there (mpirun --hostfile, srun --ntasks-per-node) or fewer "
			    "jvms=");
	setup_fini(&s);
}

static void test_sd_host_lun_pairs(void **state)
{
	char *names[] = { "n1", "n2", "n3" };
	struct setup s;

	(void)state;
	build(&s,
	      "hd=ha\nhd=hb\nhd=hc\n"
	      "sd=sd1,host=ha,lun=/dev/x,host=(hb,hc),lun=/dev/y\n"
	      "sd=sd2,lun=/dev/z,host=hb\n"
	      "sd=sd3,lun=/dev/w\n"
	      "sd=sd4,host=*,lun=/dev/v\n"
	      "sd=s,host=ha,lun=/f%d,host=hb,lun=/g%d,count=(1,2)\n" RUN,
	      names, 3);
	assert_int_equal(s.ret, 0);
	assert_string_equal(clu_sd_lun(&s.cfg->sds[0], "ha"), "/dev/x");
	assert_string_equal(clu_sd_lun(&s.cfg->sds[0], "hc"), "/dev/y");
	assert_string_equal(clu_sd_lun(&s.cfg->sds[1], "hb"), "/dev/z");
	assert_null(clu_sd_lun(&s.cfg->sds[1], "ha"));
	assert_string_equal(clu_sd_lun(&s.cfg->sds[2], "hc"), "/dev/w");
	assert_string_equal(clu_sd_lun(&s.cfg->sds[3], "hc"), "/dev/v");
	assert_int_equal(parm_sd_find(s.cfg, "s2"), 5);
	assert_string_equal(clu_sd_lun(&s.cfg->sds[5], "hb"), "/g2");
	assert_null(clu_sd_lun(&s.cfg->sds[5], "hc"));
	setup_fini(&s);
}

static void test_wd_host_list(void **state)
{
	char *names[] = { "n1", "n2", "n3" };
	struct setup s;

	(void)state;
	build(&s,
	      "hd=ha\nhd=hb\nhd=hc\nsd=sd1,lun=/tmp/x\n"
	      "wd=wd1,sd=sd1,host=(ha,hc)\nrd=rd1,wd=wd1,iorate=100,elapsed=2,interval=1\n",
	      names, 3);
	assert_int_equal(s.ret, 0);
	assert_true(clu_wd_on_host(&s.cfg->wds[0], "hc"));
	assert_false(clu_wd_on_host(&s.cfg->wds[0], "hb"));
	setup_fini(&s);
}

/* The splits VDbench 5.04.07 made (doc/cluster.md). */
static void test_split_matches_vdbench(void **state)
{
	char *names[] = { "n", "n", "n", "n" };
	uint32_t threads[] = { 8, 5, 3 }, out[4 * 3];
	bool ok[3 * 2] = { true, true, true, true, true, true };
	const uint32_t want[4 * 3] = { 2, 2, 0, 2, 1, 1, 2, 1, 1, 2, 1, 1 };
	const uint32_t want1[3 * 2] = { 3, 2, 3, 1, 2, 2 };
	struct setup s;

	(void)state;
	/* two hosts of two slaves: ranks ha-0, ha-1, hb-0, hb-1 */
	build(&s, "hd=default,jvms=2\nhd=ha\nhd=hb\nsd=sd1,lun=/tmp/x\n" RUN, names, 4);
	assert_int_equal(s.ret, 0);
	clu_split_threads(&s.map, threads, ok, 3, out);
	assert_memory_equal(out, want, sizeof(want));
	setup_fini(&s);
	/* one host of three slaves */
	build(&s, "hd=localhost,jvms=3\nsd=sd1,lun=/tmp/x\n" RUN, names, 3);
	assert_int_equal(s.ret, 0);
	clu_split_threads(&s.map, threads, ok, 2, out);
	assert_memory_equal(out, want1, sizeof(want1));
	setup_fini(&s);
}

static void test_split_skips_hosts_without_the_sd(void **state)
{
	char *names[] = { "n", "n", "n" };
	uint32_t threads[] = { 4 }, out[3];
	bool ok[3] = { true, false, true };
	struct setup s;

	(void)state;
	build(&s, "hd=ha\nhd=hb\nhd=hc\nsd=sd1,lun=/tmp/x\n" RUN, names, 3);
	assert_int_equal(s.ret, 0);
	clu_split_threads(&s.map, threads, ok, 1, out);
	assert_int_equal(out[0], 2);
	assert_int_equal(out[1], 0);
	assert_int_equal(out[2], 2);
	setup_fini(&s);
}

static void test_share_divides_rates_over_instances(void **state)
{
	char *names[] = { "n", "n", "n" };
	struct clu_share sh[3];
	struct setup s;

	(void)state;
	/* wd1 on sd1 (3 threads: one per host) and sd2 (2 threads: ha, hb); wd2 only on hc */
	build(&s,
	      "hd=ha\nhd=hb\nhd=hc\nsd=sd1,lun=/tmp/x,threads=3\nsd=sd2,lun=/tmp/y,threads=2\n"
	      "wd=wd1,sd=sd*,skew=80\nwd=wd2,sd=sd1,host=hc,skew=20\n"
	      "rd=rd1,wd=wd*,iorate=1000,elapsed=2,interval=1\n",
	      names, 3);
	assert_int_equal(s.ret, 0);
	for (uint32_t r = 0; r < 3; r++)
		assert_int_equal(clu_share_build(&s.map, s.plan, 0, r, &sh[r]), 0);
	assert_int_equal(sh[0].threads[0], 1);
	assert_int_equal(sh[2].threads[1], 0);	    /* sd2's 2 threads: ha then hb */
	assert_int_equal(sh[0].nr_instances[0], 5); /* wd1: 3 on sd1, 2 on sd2 */
	assert_int_equal(sh[0].nr_instances[1], 1); /* wd2: hc's sd1 */
	assert_false(sh[0].is_wd_here[1]);
	assert_true(sh[2].is_wd_here[1]);
	for (uint32_t r = 0; r < 3; r++)
		clu_share_fini(&sh[r]);
	setup_fini(&s);
}

static void test_parmcopy_replays_what_rank0_read(void **state)
{
	char dir[] = "/tmp/ioramp-clu.XXXXXX", main_f[256], inc[256];
	struct clu_parmcopy rec, rep;
	struct parm_input in = { 0 };
	struct parm_config *a = NULL, *b = NULL;
	struct parm_source *keep = NULL;
	struct parm_err err;
	const char *files[1];
	void *buf = NULL;
	size_t len = 0;
	uint64_t seed = 0;
	FILE *f;

	(void)state;
	assert_non_null(mkdtemp(dir));
	snprintf(main_f, sizeof(main_f), "%s/main.vdb", dir);
	snprintf(inc, sizeof(inc), "%s/inc.vdb", dir);
	f = fopen(inc, "w");
	assert_non_null(f);
	fputs("sd=sd1,lun=/tmp/x,threads=3\n", f);
	fclose(f);
	f = fopen(main_f, "w");
	assert_non_null(f);
	fprintf(f, "include=%s\nwd=wd1,sd=sd1\nrd=rd1,wd=wd1,iorate=100,elapsed=2\n", inc);
	fclose(f);
	files[0] = main_f;
	in.files = files;
	in.nr_files = 1;
	clu_parmcopy_record(&rec);
	in.fileops = &rec.ops;
	assert_int_equal(parm_config_read(&in, &a, &keep, &err), 0);
	assert_int_equal(clu_parmcopy_pack(&rec, 42, &buf, &len), 0);
	/* the files are gone: the replay needs none of them */
	unlink(inc);
	unlink(main_f);
	rmdir(dir);
	assert_int_equal(clu_parmcopy_replay(&rep, buf, len, &seed), 0);
	assert_int_equal(seed, 42);
	in.fileops = &rep.ops;
	assert_int_equal(parm_config_read(&in, &b, &keep, &err), 0);
	assert_int_equal(b->nr_sds, 1);
	assert_int_equal(b->sds[0].threads, 3);
	assert_string_equal(b->sds[0].loc.file, a->sds[0].loc.file);
	clu_parmcopy_fini(&rep);
	assert_true(clu_parmcopy_replay(&rep, buf, len / 2, &seed) < 0);
	parm_config_free(a);
	parm_config_free(b);
	clu_parmcopy_fini(&rec);
	clu_parmcopy_fini(&rep);
	free(buf);
}

static void test_bank_pack_round_trip(void **state)
{
	struct stats_bank *a = calloc(1, sizeof(*a)), *b = calloc(1, sizeof(*b));
	size_t max = stats_bank_pack_max(), n;
	uint8_t *buf = malloc(max);

	(void)state;
	assert_non_null(a);
	assert_non_null(b);
	assert_non_null(buf);
	stats_bank_start(a, 2, 1000);
	for (uint64_t i = 1; i < 5000; i++)
		stats_bank_record(a, i % 3 ? STATS_OP_READ : STATS_OP_WRITE, 4096, i * 997,
				  i * 1009);
	stats_bank_record_error(a, STATS_OP_WRITE);
	stats_bank_inflight_add(a, 3, 5000);
	stats_bank_finish(a, 9000);
	n = stats_bank_pack(a, buf, max);
	assert_true(n > 0 && n < max / 4); /* sparse: far below the full histograms */
	assert_int_equal(stats_bank_unpack(b, buf, n), (int64_t)n);
	assert_memory_equal(a, b, sizeof(*a));
	assert_true(stats_bank_unpack(b, buf, n - 1) < 0);
	assert_int_equal(stats_bank_pack(a, buf, max - 1), 0);
	free(a);
	free(b);
	free(buf);
}

static void test_solo_transport(void **state)
{
	struct clu_comm *c = NULL;
	char **names = NULL;
	int argc = 1;
	char *args[] = { "ioramp", NULL }, **argv = args;

	(void)state;
	assert_int_equal(clu_comm_open(&argc, &argv, &c), 0);
	if (clu_comm_has_mpi())
		skip(); /* a unit test binary is never linked with MPI; keep the check honest */
	assert_int_equal(clu_comm_rank(c), 0);
	assert_int_equal(clu_comm_size(c), 1);
	assert_int_equal(clu_comm_host_names(c, &names), 0);
	assert_non_null(names[0]);
	clu_names_free(names, 1);
	assert_int_equal(clu_comm_send(c, 0, CLU_TAG_STATS, "x", 1), -ENOTCONN);
	clu_comm_close(c, false, 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_map_without_hd_groups_by_machine),
		cmocka_unit_test(test_map_hd_by_system_then_in_order),
		cmocka_unit_test(test_map_localhost_and_shortage),
		cmocka_unit_test(test_sd_host_lun_pairs),
		cmocka_unit_test(test_wd_host_list),
		cmocka_unit_test(test_split_matches_vdbench),
		cmocka_unit_test(test_split_skips_hosts_without_the_sd),
		cmocka_unit_test(test_share_divides_rates_over_instances),
		cmocka_unit_test(test_parmcopy_replays_what_rank0_read),
		cmocka_unit_test(test_bank_pack_round_trip),
		cmocka_unit_test(test_solo_transport),
	};

	return cmocka_run_group_tests_name("cluster", tests, NULL, NULL);
}
