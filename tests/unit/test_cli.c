/* The command line's workload library and review suite: finding the library and a bare -f
 * name, the profile headers and figures, the parameter text with one SD per drive, --curve. */
#include <errno.h>
#include <fcntl.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* cmocka.h needs the headers above first */
#include <cmocka.h>

#include "../../src/cli/library.h"
#include "../../src/cli/suite.h"
#include "ioramp/parm.h"
#include "ioramp/plan.h"

static const char profile_text[] =
	"* demo.vdb - \"Demo Mix\": a made-up profile, as named in no review. More text.\n"
	"* Run it: ioramp -f demo.vdb lun=/dev/nvme%dn1 (the line sd=sd,lun=$lun below)\n"
	"*\n"
	"sd=default,threads=4,range=(0,25)\n"
	"sd=sd,count=(0,8),lun=$lun\n"
	"wd=w1,sd=sd*,rdpct=70,xfersize=(4k,50,64k,50)\n"
	"rd=r1,wd=w1,iorate=curve,curve=(10-120,10),elapsed=4,interval=1\n";

static void write_file(const char *path, const char *text)
{
	FILE *f = fopen(path, "w");

	assert_non_null(f);
	fputs(text, f);
	fclose(f);
}

static void test_suite_text_one_sd_per_drive(void **state)
{
	struct cli_drive drives[3] = {
		{ .path = "/dev/nvme0n1", .info = { .is_block = true } },
		{ .path = "/dev/sdc", .info = { .is_block = true } },
		{ .path = "/tmp/drive2" },
	};
	char *out;

	(void)state;
	assert_int_equal(cli_suite_text(profile_text, drives, 3, "1g", &out), 0);
	assert_non_null(strstr(out, "sd=default,threads=4,range=(0,25)\n"
				    "* ioramp suite: one SD per drive instead of "
				    "sd=sd,count=(0,8),lun=$lun\n"
				    "sd=sd0,lun=/dev/nvme0n1\n"
				    "sd=sd1,lun=/dev/sdc\n"
				    "sd=sd2,lun=/tmp/drive2,size=1g\n"
				    "wd=w1,sd=sd*,"));
	assert_int_equal(strncmp(out, profile_text, 40), 0);
	free(out);
	assert_int_equal(cli_suite_text(profile_text, drives, 3, NULL, &out), 0);
	assert_non_null(strstr(out, "sd=sd2,lun=/tmp/drive2\nwd="));
	free(out);
}

static void test_suite_text_needs_one_drives_line(void **state)
{
	struct cli_drive d = { .path = "/dev/sdb" };
	char *out = (char *)1;

	(void)state;
	assert_int_equal(
		cli_suite_text("* lun=$lun in a comment\nsd=sd1,lun=/dev/sdb\n", &d, 1, NULL, &out),
		-ENOENT);
	assert_null(out);
	assert_int_equal(cli_suite_text("sd=a,lun=$lun\nsd=b,lun=$lun\n", &d, 1, NULL, &out),
			 -EEXIST);
}

/* The generated text reads as ioramp reads a file: SDs sd0..sd2, --curve points. */
static void test_suite_text_parses_and_plans(void **state)
{
	struct cli_drive drives[3] = { { .path = "/tmp/a" },
				       { .path = "/tmp/b" },
				       { .path = "/tmp/c" } };
	struct parm_input in = { 0 };
	struct parm_config *cfg = NULL;
	struct parm_source *keep = NULL;
	struct plan *plan = NULL;
	struct parm_err err;
	double *pcts;
	char *text;

	(void)state;
	assert_int_equal(cli_suite_text(profile_text, drives, 3, "64m", &text), 0);
	assert_int_equal(
		parm_config_read_text("demo.vdb", text, strlen(text), &in, &cfg, &keep, &err), 0);
	free(text);
	assert_int_equal(cfg->nr_sds, 3);
	assert_string_equal(cfg->sds[2].name, "sd2");
	assert_string_equal(cfg->sds[2].lun, "/tmp/c");
	assert_int_equal(cfg->sds[2].size_bytes, 64 << 20);
	assert_int_equal(cfg->sds[2].threads, 4);
	assert_int_equal(cli_suite_parse_curve("50,100", &pcts), 2);
	assert_int_equal(cli_suite_set_curve(cfg, pcts, 2), 0);
	free(pcts);
	assert_int_equal(plan_build(cfg, &plan, &err), 0);
	assert_int_equal(plan->nr_runs, 3);
	assert_string_equal(plan->runs[2].name, "r1_(100%)");
	plan_free(plan);
	parm_config_free(cfg);
}

/* The demo on a file system without direct I/O: o_direct dropped everywhere. */
static void test_suite_drop_direct(void **state)
{
	static const char text[] =
		"sd=default,openflags=o_direct\n"
		"sd=sd1,lun=/tmp/a,openflags=(o_direct,o_dsync)\n"
		"wd=w1,sd=sd1,openflags=o_direct\n"
		"rd=r1,wd=w1,iorate=max,elapsed=2,interval=1,openflags=o_direct\n";
	struct parm_input in = { 0 };
	struct parm_config *cfg = NULL;
	struct parm_source *keep = NULL;
	struct parm_err err;

	(void)state;
	assert_int_equal(parm_config_read_text("d.vdb", text, strlen(text), &in, &cfg, &keep, &err),
			 0);
	assert_true(cfg->sds[0].openflags.flags & O_DIRECT);
	cli_suite_drop_direct(cfg);
	assert_false(cfg->sds[0].openflags.flags & O_DIRECT);
	assert_true(cfg->sds[0].openflags.flags & O_DSYNC);
	assert_false(cfg->wds[0].openflags.flags & O_DIRECT);
	assert_false(cfg->rds[0].openflags.flags & O_DIRECT);
	parm_config_free(cfg);
}

static void test_suite_parse_curve_rejects_non_percentages(void **state)
{
	static const char *const bad[] = { "", "a", "10,,50", "0", "50,", "-5", "10;20" };
	double *pcts = NULL;

	(void)state;
	assert_int_equal(cli_suite_parse_curve("10,30.5,120", &pcts), 3);
	assert_true(pcts[1] == 30.5);
	free(pcts);
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		assert_int_equal(cli_suite_parse_curve(bad[i], &pcts), -EINVAL);
		assert_null(pcts);
	}
}

static void test_library_bare_names(void **state)
{
	(void)state;
	assert_true(cli_library_is_name("sql"));
	assert_true(cli_library_is_name("sql-90-10"));
	assert_false(cli_library_is_name("sql.vdb"));
	assert_false(cli_library_is_name("./sql"));
	assert_false(cli_library_is_name("workloads/sql"));
	assert_false(cli_library_is_name(""));
}

/* A library in a temporary directory, found through $IORAMP_WORKLOADS. */
static void test_library_from_environment(void **state)
{
	char dir[] = "/tmp/ioramp-test-lib.XXXXXX", path[512], found[512], cwd[512];
	char **names = NULL, *lib = NULL;
	int nr;

	(void)state;
	assert_non_null(mkdtemp(dir));
	assert_non_null(getcwd(cwd, sizeof(cwd)));
	snprintf(path, sizeof(path), "%s/zeta.vdb", dir);
	write_file(path, profile_text);
	snprintf(path, sizeof(path), "%s/alpha.vdb", dir);
	write_file(path, "* alpha.vdb - no title here. Second sentence.\n");
	snprintf(path, sizeof(path), "%s/notes.txt", dir);
	write_file(path, "not a profile\n");
	setenv("IORAMP_WORKLOADS", dir, 1);
	assert_int_equal(cli_library_dir(found, sizeof(found)), 0);
	assert_string_equal(found, dir);
	nr = cli_library_names(dir, &names);
	assert_int_equal(nr, 2);
	assert_string_equal(names[0], "alpha");
	assert_string_equal(names[1], "zeta");
	cli_library_names_free(names, nr);
	assert_int_equal(cli_library_find("zeta", found, sizeof(found)), 0);
	assert_int_equal(cli_library_find("nothere", found, sizeof(found)), -ENOENT);

	/* -f zeta: the library's file, unless ./zeta exists; paths are left alone. */
	assert_int_equal(chdir(dir), 0);
	assert_int_equal(cli_library_resolve("zeta", &lib), 0);
	snprintf(path, sizeof(path), "%s/zeta.vdb", dir);
	assert_string_equal(lib, path);
	free(lib);
	assert_int_equal(cli_library_resolve("zeta.vdb", &lib), 0);
	assert_null(lib);
	assert_int_equal(cli_library_resolve("nothere", &lib), 0);
	assert_null(lib);
	write_file("zeta", "sd=sd1,lun=/dev/null\n");
	assert_int_equal(cli_library_resolve("zeta", &lib), 0);
	assert_null(lib);
	assert_int_equal(chdir(cwd), 0);

	unsetenv("IORAMP_WORKLOADS");
	snprintf(path, sizeof(path), "rm -rf '%s'", dir);
	assert_int_equal(system(path), 0);
}

static void test_library_info_title_and_first_sentence(void **state)
{
	char dir[] = "/tmp/ioramp-test-info.XXXXXX", path[512];
	struct cli_profile_info info;

	(void)state;
	assert_non_null(mkdtemp(dir));
	snprintf(path, sizeof(path), "%s/demo.vdb", dir);
	write_file(path, profile_text);
	assert_int_equal(cli_library_info(path, "demo", &info), 0);
	assert_string_equal(info.title, "Demo Mix");
	assert_string_equal(info.desc, "a made-up profile");
	write_file(path, "* demo.vdb - fills the drives: two passes at 0.5 MB/s, then more.\n"
			 "* Second line of the sentence. Not this one.\n*\n* other paragraph.\n");
	assert_int_equal(cli_library_info(path, "demo", &info), 0);
	assert_string_equal(info.title, "demo");
	assert_string_equal(info.desc, "fills the drives: two passes at 0.5 MB/s, then more");
	unlink(path);
	rmdir(dir);
	assert_int_equal(cli_library_info(path, "demo", &info), -ENOENT);
}

/* The figures `ioramp workloads` lists, from the library files themselves. */
static void check_figures(const char *file, const char *rd, const char *sizes, const char *threads)
{
	struct parm_var lun = { .name = "lun", .value = "drive%d" };
	const char *files[] = { file };
	struct parm_input in = { .files = files, .nr_files = 1, .vars = &lun, .nr_vars = 1 };
	struct parm_config *cfg = NULL;
	struct parm_source *keep = NULL;
	struct plan *plan = NULL;
	struct parm_err err;
	char r[64], s[64], t[64];

	assert_int_equal(parm_config_read(&in, &cfg, &keep, &err), 0);
	assert_int_equal(plan_build(cfg, &plan, &err), 0);
	cli_profile_figures(plan, r, s, t, sizeof(r));
	assert_string_equal(r, rd);
	assert_string_equal(s, sizes);
	assert_string_equal(t, threads);
	plan_free(plan);
	parm_config_free(cfg);
}

static void test_profile_figures_of_library_files(void **state)
{
	(void)state;
	check_figures("workloads/sql.vdb", "97", "8k", "32");
	check_figures("workloads/oracle.vdb", "79.21", "8k,64k", "32");
	check_figures("workloads/vdi-fc-boot.vdb", "88", "4k,8k,32k,64k", "32");
	check_figures("workloads/precondition.vdb", "0", "4k,128k", "16,64");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_suite_text_one_sd_per_drive),
		cmocka_unit_test(test_suite_text_needs_one_drives_line),
		cmocka_unit_test(test_suite_text_parses_and_plans),
		cmocka_unit_test(test_suite_drop_direct),
		cmocka_unit_test(test_suite_parse_curve_rejects_non_percentages),
		cmocka_unit_test(test_library_bare_names),
		cmocka_unit_test(test_library_from_environment),
		cmocka_unit_test(test_library_info_title_and_first_sentence),
		cmocka_unit_test(test_profile_figures_of_library_files),
	};

	return cmocka_run_group_tests_name("cli", tests, NULL, NULL);
}
