/* `ioramp demo`: the review suite's SQL profile, shortened, on eight small files in a
 * temporary directory: a curve in well under two minutes, its IOPS-at-latency table and the
 * review page, as any user can run it on a fresh machine. The files are written in full first
 * (formatsds=yes: the engine's SD_format pass), so that no read hits a hole and the max run is
 * the drive's, not the file system's zero pages. The drive files are removed after
 * (--keep keeps them); the report directory stays. `ioramp demo --model` runs the whole library
 * instead, on eight modelled drives in virtual time (no file at all), in under a minute. */
#include "cli.h"

#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "suite.h"

enum {
	DEMO_NR_DRIVES = 8,
	DEMO_DRIVE_BYTES = 128 << 20, /* written in full by the format pass */
};
#define DEMO_DRIVE_SIZE "128m" /* size= of each drive: DEMO_DRIVE_BYTES */

/* The modelled demo's drive: the only preset, from its spec sheet (man ioramp, ENGINE). */
#define DEMO_MODEL	"model:micron-9100-max-2.4tb"
#define DEMO_MODEL_SIZE "2400000000000" /* the sheet's capacity, 2.4 TB */

static const char demo_usage[] =
	"usage: ioramp demo [--dir DIR] [--keep] [--engine NAME]\n"
	"       ioramp demo --model [--dir DIR] [--engine model:...]\n"
	"\n"
	"Runs the SQL profile of the workload library on eight 128 MiB files, with short points\n"
	"(-e 2 -w 1 -i 1, curve 10,30,50,70,90,100), prints the curve and its IOPS at latency,\n"
	"and writes the review page. The files are first written in full (formatsds=yes: the\n"
	"SD_format run, 128 KiB sequential writes), so that no read hits a hole. The files go in a new directory under $TMPDIR\n"
	"(or /tmp), or in DIR; they are removed at the end unless --keep. The report stays.\n"
	"\n"
	"--model runs every profile of the library (as ioramp suite does) on eight modelled\n"
	"drives (" DEMO_MODEL ", virtual time, nothing opened), with points of\n"
	"-e 2 -w 0 -i 1 and curve 50,100, and leaves the suite page: every figure is the model's.\n";

struct demo_args {
	const char *dir;
	const char *engine;
	bool is_keep;
	bool is_model;
};

static int parse_args(struct demo_args *a, int argc, char **argv)
{
	for (int i = 1; i < argc; i++) {
		if (!strcmp(argv[i], "--keep")) {
			a->is_keep = true;
		} else if (!strcmp(argv[i], "--model")) {
			a->is_model = true;
		} else if (!strcmp(argv[i], "--dir") && i + 1 < argc) {
			a->dir = argv[++i];
		} else if (!strcmp(argv[i], "--engine") && i + 1 < argc) {
			a->engine = argv[++i];
		} else {
			fprintf(stderr, "ioramp demo: error: unexpected argument %s\n%s", argv[i],
				demo_usage);
			return -EINVAL;
		}
	}
	if (a->is_model && a->engine && !eng_engine_is_model(a->engine)) {
		fprintf(stderr,
			"ioramp demo: error: --model runs modelled drives; expected --engine "
			"model[:PRESET][,OPTION=VALUE...] or no --engine\n%s",
			demo_usage);
		return -EINVAL;
	}
	return 0;
}

/* The directory: --dir (created when missing) or a new one under $TMPDIR. */
static int make_dir(const struct demo_args *a, char *buf, size_t len)
{
	const char *tmp = getenv("TMPDIR");

	if (a->dir) {
		if (mkdir(a->dir, 0777) && errno != EEXIST)
			return -errno;
		snprintf(buf, len, "%s", a->dir);
		return 0;
	}
	if ((size_t)snprintf(buf, len, "%s/ioramp-demo.XXXXXX", tmp && *tmp ? tmp : "/tmp") >= len)
		return -ENAMETOOLONG;
	return mkdtemp(buf) ? 0 : -errno;
}

/* The eight drive names DIR/drive0 ... drive7 (the format run creates them). */
static int name_drives(struct cli_suite_opts *o, const char *dir)
{
	o->drives = calloc(DEMO_NR_DRIVES, sizeof(*o->drives));
	if (!o->drives)
		return -ENOMEM;
	for (int i = 0; i < DEMO_NR_DRIVES; i++)
		if (asprintf((char **)&o->drives[o->nr_drives++], "%s/drive%d", dir, i) < 0)
			return -ENOMEM;
	return 0;
}

/* Whether the file system of dir takes direct I/O (tmpfs does not): one aligned 4 KiB write
 * to a probe file, removed after. */
static bool has_direct_io(const char *dir)
{
	char path[PATH_MAX];
	void *buf = NULL;
	bool is_ok;
	int fd;

	if ((size_t)snprintf(path, sizeof(path), "%s/.direct-io-probe", dir) >= sizeof(path))
		return false;
	fd = open(path, O_RDWR | O_CREAT | O_EXCL | O_DIRECT | O_CLOEXEC, 0666);
	if (fd < 0)
		return false;
	unlink(path);
	if (posix_memalign(&buf, 4096, 4096)) {
		close(fd);
		return false;
	}
	memset(buf, 0, 4096);
	is_ok = pwrite(fd, buf, 4096, 0) == 4096;
	free(buf);
	close(fd);
	return is_ok;
}

static int demo_opts(struct cli_suite_opts *o, const struct demo_args *a, const char *report)
{
	static const double curve[] = { 10, 30, 50, 70, 90, 100 };

	o->outdir = report;
	o->engine = a->engine;
	o->is_yes = true;
	o->overrides = (struct parm_overrides){ .elapsed_s = 2,
						.interval_s = 1,
						.warmup_s = 1,
						.has_elapsed = true,
						.has_interval = true,
						.has_warmup = true };
	o->profiles = calloc(1, sizeof(*o->profiles));
	o->curve_pcts = malloc(sizeof(curve));
	if (!o->profiles || !o->curve_pcts || !(o->profiles[0] = strdup("sql")))
		return -ENOMEM;
	o->nr_profiles = 1;
	memcpy(o->curve_pcts, curve, sizeof(curve));
	o->nr_curve_pcts = IORAMP_ARRAY_SIZE(curve);
	return 0;
}

/* --model: the whole library on eight drive names (nothing is created), points of 2 s. */
static int model_opts(struct cli_suite_opts *o, const struct demo_args *a, const char *dir,
		      const char *report)
{
	static const double curve[] = { 50, 100 };

	o->outdir = report;
	o->engine = a->engine ? a->engine : DEMO_MODEL;
	o->size = DEMO_MODEL_SIZE;
	o->is_yes = true;
	o->overrides = (struct parm_overrides){ .elapsed_s = 2,
						.interval_s = 1,
						.warmup_s = 0,
						.has_elapsed = true,
						.has_interval = true,
						.has_warmup = true,
						.zero_warmup_counts = true };
	o->curve_pcts = malloc(sizeof(curve));
	if (!o->curve_pcts)
		return -ENOMEM;
	memcpy(o->curve_pcts, curve, sizeof(curve));
	o->nr_curve_pcts = IORAMP_ARRAY_SIZE(curve);
	return name_drives(o, dir);
}

static int model_run(struct cli_suite *s, const char *dir)
{
	int rc;

	printf("ioramp demo: every profile of the workload library on eight modelled drives "
	       "(%s, virtual time: nothing is opened in %s), 2-second points\n\n",
	       s->o.engine, dir);
	rc = cli_suite_prepare(s);
	if (!rc)
		rc = cli_suite_confirm(s);
	if (!rc)
		rc = cli_suite_execute(s);
	return rc;
}

static void remove_drives(const struct cli_suite_opts *o)
{
	for (size_t i = 0; i < o->nr_drives; i++)
		unlink(o->drives[i]);
}

static int demo_run(struct cli_suite *s, const struct demo_args *a, const char *dir)
{
	int rc;

	if (name_drives(&s->o, dir)) {
		fprintf(stderr, "ioramp demo: error: out of memory\n");
		return CLI_EXIT_FAILED;
	}
	s->o.size = DEMO_DRIVE_SIZE;
	s->o.is_formatsds = true;
	if (!has_direct_io(dir)) {
		s->o.is_page_cache = true;
		if (!s->o.engine)
			s->o.engine = "sync";
		printf("ioramp demo: note: %s takes no direct I/O (tmpfs?): the demo runs through "
		       "the page cache with the sync engine\n",
		       dir);
	}
	printf("ioramp demo: the SQL profile on eight %d MiB files in %s, 2-second points\n"
	       "ioramp demo: formatsds=yes: the files are written in full first (SD_format, "
	       "128 KiB sequential writes), so that no read hits a hole\n\n",
	       DEMO_DRIVE_BYTES >> 20, dir);
	rc = cli_suite_prepare(s);
	if (!rc)
		rc = cli_suite_confirm(s);
	if (!rc)
		rc = cli_suite_execute(s);
	if (!a->is_keep)
		remove_drives(&s->o);
	return rc;
}

int cli_demo(int argc, char **argv)
{
	struct demo_args a = { 0 };
	struct cli_suite s = { 0 };
	char dir[PATH_MAX - 32], report[PATH_MAX];
	int rc, ret;

	if (argc > 1 && (!strcmp(argv[1], "--help") || !strcmp(argv[1], "-h"))) {
		fputs(demo_usage, stdout);
		return CLI_EXIT_OK;
	}
	if (parse_args(&a, argc, argv))
		return CLI_EXIT_USAGE;
	ret = make_dir(&a, dir, sizeof(dir));
	if (ret) {
		fprintf(stderr, "ioramp demo: error: cannot create the demo directory: %s\n",
			strerror(-ret));
		return CLI_EXIT_FAILED;
	}
	snprintf(report, sizeof(report), "%s/report", dir);
	s.o.argc = argc + 1; /* main() passes argv + 1: the reports record "ioramp demo ..." */
	s.o.argv = argv - 1;
	if (a.is_model) {
		rc = model_opts(&s.o, &a, dir, report) ? CLI_EXIT_FAILED : model_run(&s, dir);
		if (!access(report, F_OK))
			printf("ioramp demo: modelled drives, not measurements; the report stays in "
			       "%s: open %s/report.html\n",
			       report, report);
		cli_suite_fini(&s);
		return rc;
	}
	rc = demo_opts(&s.o, &a, report) ? CLI_EXIT_FAILED : demo_run(&s, &a, dir);
	if (a.is_keep)
		printf("ioramp demo: drive files kept: %s/drive0 ... drive%d\n", dir,
		       DEMO_NR_DRIVES - 1);
	else
		printf("ioramp demo: drive files removed (--keep keeps them)\n");
	if (!access(report, F_OK))
		printf("ioramp demo: the report stays in %s: open %s/report.html\n", report,
		       report);
	cli_suite_fini(&s);
	return rc;
}
