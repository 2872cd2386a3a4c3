/* VDbench's command-line options beyond the files, the output directory, the time overrides,
 * simulation and validation (reference §7, vdbench.pdf 1.6): the quick tests -t and -tf, -m,
 * -l, -r, the format overrides -co, -cy and -cn, and -p, -k and -d, which set what ioramp
 * does not have (a slave socket, Solaris kstat, debug flags) and are taken with a note. */
#include "args.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* VDbench 5.04.07's own quick tests, as it writes them to /tmp/parmfile (observed). */
static const char quick_raw[] = "*\n"
				"* This sample parameter file first creates a temporary file\n"
				"* if this is the first time the file is referenced.\n"
				"* It then does a five second 4k 50% read, 50% write test.\n"
				"*\n"
				"sd=sd1,lun=/tmp/quick_vdbench_test,size=40m\n"
				"wd=wd1,sd=sd1,xf=1k,rdpct=50\n"
				"rd=rd1,wd=wd1,iorate=100,elapsed=5,interval=1\n";

static const char quick_fs[] =
	"*\n"
	"* Random read and write of randomly selected files.\n"
	"*\n"
	"* 'format=yes' first creates (depth*width*files) 100 128k files.\n"
	"* Test then will have eight threads each randomly select a file and do random\n"
	"* reads.  After 'stopafter=100' reads the file is closed and a new\n"
	"* file is randomly selected.\n"
	"* An other eight threads will do the same, but only for writes.\n"
	"*\n"
	"fsd=fsd1,anchor=/tmp/fsd1,depth=1,width=1,files=100,size=128k\n"
	"fwd=default,xfersize=4k,fileio=random,fileselect=random,threads=8,stopafter=100\n"
	"fwd=fwd1,fsd=fsd1,operation=read\n"
	"fwd=fwd2,fsd=fsd1,operation=write\n"
	"rd=rd1,fwd=fwd*,fwdrate=100,format=yes,elapsed=5,interval=1\n";

/* -t or -tf: the quick test written where VDbench writes it ($TMPDIR or /tmp, a name of
 * ioramp's own), then read as -f FILE. */
static int quick_test(struct cli_args *a, bool is_fs)
{
	const char *tmp = getenv("TMPDIR");
	char *path;
	FILE *f;
	int ret = 0;

	if (asprintf(&path, "%s/ioramp-parmfile%s", tmp && *tmp ? tmp : "/tmp",
		     is_fs ? "-fs" : "") < 0)
		return -ENOMEM;
	f = fopen(path, "w");
	if (!f || fputs(is_fs ? quick_fs : quick_raw, f) < 0)
		ret = -errno;
	if (f && fclose(f) && !ret)
		ret = -errno;
	if (ret) {
		fprintf(stderr, "ioramp: error: -t%s: cannot write %s: %s\n", is_fs ? "f" : "",
			path, strerror(-ret));
		free(path);
		return -EINVAL;
	}
	ret = cli_args_own_file(a, path);
	if (ret)
		free(path);
	return ret;
}

/* -l alone loops forever; -l N runs every RD N times, -l Ns, Nm or Nh for that long. */
static int loop_option(struct cli_args *a, int argc, char **argv, int *i)
{
	const char *v = argv[*i][2] ? argv[*i] + 2 : NULL;
	size_t n;

	if (!v && *i + 1 < argc && argv[*i + 1][0] >= '0' && argv[*i + 1][0] <= '9')
		v = argv[++*i];
	if (!v) {
		a->overrides.loop = "";
		return 0;
	}
	n = strspn(v, "0123456789");
	if (!n || (v[n] && (strchr("smh", v[n]) == NULL || v[n + 1]))) {
		fprintf(stderr,
			"ioramp: error: -l %s: expected a count or a time such as -l 10, -l 30m or "
			"-l 24h\n",
			v);
		return -EINVAL;
	}
	a->overrides.loop = v;
	return 0;
}

static int jvms_option(struct cli_args *a, int argc, char **argv, int *i)
{
	const char *v = argv[*i][2] ? argv[*i] + 2 : *i + 1 < argc ? argv[++*i] : "";
	char *end;
	unsigned long n = strtoul(v, &end, 10);

	if (!*v || *end || n < 1 || n > 64) {
		fprintf(stderr, "ioramp: error: -m %s: expected a JVM count from 1 to 64\n", v);
		return -EINVAL;
	}
	a->overrides.jvms = (uint32_t)n;
	a->overrides.has_jvms = true;
	return 0;
}

/* -p N, -k, -d N: VDbench's slave socket port, Solaris kstat, debug flags; a word after -p or
 * -d that is no number is left to be read as what it is. */
static int ignored_option(int argc, char **argv, int *i)
{
	const char *arg = argv[*i];
	bool has_value = arg[1] != 'k';

	if (has_value && !arg[2] && *i + 1 < argc && argv[*i + 1][0] >= '0' &&
	    argv[*i + 1][0] <= '9')
		++*i; /* its number: -p 5570, -d 3 */
	fprintf(stderr, "ioramp: note: %.2s ignored: %s\n", arg,
		arg[1] == 'p'	? "ioramp has no slave JVMs to connect to"
		: arg[1] == 'k' ? "Solaris kstat statistics are not collected on Linux"
				: "VDbench's debug flags have no meaning here");
	return 0;
}

int cli_args_vdbench(struct cli_args *a, int argc, char **argv, int *i)
{
	const char *arg = argv[*i];

	if (!strcmp(arg, "-t") || !strcmp(arg, "-tf"))
		return quick_test(a, arg[2] == 'f');
	if (arg[1] == 'l')
		return loop_option(a, argc, argv, i);
	if (arg[1] == 'm' && strcmp(arg, "-mb"))
		return jvms_option(a, argc, argv, i);
	if (arg[1] == 'r') {
		a->overrides.restart_rd = arg[2] ? arg + 2 : *i + 1 < argc ? argv[++*i] : NULL;
		if (a->overrides.restart_rd && *a->overrides.restart_rd)
			return 0;
		fprintf(stderr, "ioramp: error: -r needs an RD name, such as -r rd5\n");
		return -EINVAL;
	}
	if (!strcmp(arg, "-co") || !strcmp(arg, "-cy") || !strcmp(arg, "-cn")) {
		a->overrides.fs_format = arg[2] == 'o' ? "only" : arg[2] == 'y' ? "yes" : "no";
		return 0;
	}
	if (!strcmp(arg, "-c")) {
		fprintf(stderr,
			"ioramp: error: -c is not supported; format=yes in an rd= deletes "
			"the file structure and creates it again, format=clean deletes it\n");
		return -EINVAL;
	}
	if (!strcmp(arg, "-k") || (arg[1] == 'p' || arg[1] == 'd'))
		return ignored_option(argc, argv, i);
	return 1;
}
