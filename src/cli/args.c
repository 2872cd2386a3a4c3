/* Parsing VDbench's command line (reference §7): -f files (following words are more files),
 * -o, -e/-i/-w overrides, -s, -v/-j data validation, name=value substitution variables; options may be joined with
 * their value (-e10) or separate (-e 10). ioramp's own options are --long. */
#include "args.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "library.h"

void cli_args_fini(struct cli_args *a)
{
	free(a->files);
	for (size_t i = 0; i < a->nr_vars; i++)
		free((char *)a->vars[i].name);
	free(a->vars);
	for (size_t i = 0; i < a->nr_lib_files; i++)
		free(a->lib_files[i]);
	free(a->lib_files);
	memset(a, 0, sizeof(*a));
}

/* A bare name that is no file is a profile of the workload library (-f sql). */
static int add_file(struct cli_args *a, const char *f)
{
	const char **n = realloc(a->files, (a->nr_files + 1) * sizeof(*n));
	char **owned, *lib, near[256];

	if (!n)
		return -ENOMEM;
	a->files = n;
	if (cli_library_resolve(f, &lib))
		return -ENOMEM;
	if (!lib && cli_library_is_name(f) && access(f, F_OK) &&
	    cli_library_suggest(f, near, sizeof(near))) {
		fprintf(stderr,
			"ioramp: error: -f %s: no such file, and the library has no profile %s; "
			"did you mean -f %s? (ioramp workloads lists them)\n",
			f, f, near);
		return -EINVAL;
	}
	if (lib) {
		owned = realloc(a->lib_files, (a->nr_lib_files + 1) * sizeof(*owned));
		if (!owned) {
			free(lib);
			return -ENOMEM;
		}
		a->lib_files = owned;
		a->lib_files[a->nr_lib_files++] = lib;
		f = lib;
	}
	a->files[a->nr_files++] = f;
	return 0;
}

int cli_args_own_file(struct cli_args *a, char *path)
{
	const char **n = realloc(a->files, (a->nr_files + 1) * sizeof(*n));
	char **owned;

	if (!n)
		return -ENOMEM;
	a->files = n;
	owned = realloc(a->lib_files, (a->nr_lib_files + 1) * sizeof(*owned));
	if (!owned)
		return -ENOMEM;
	a->lib_files = owned;
	a->lib_files[a->nr_lib_files++] = path;
	a->files[a->nr_files++] = path;
	return 0;
}

static int add_var(struct cli_args *a, char *arg)
{
	char *eq = strchr(arg, '='), *name;
	struct parm_var *n;

	for (size_t i = 0; i < a->nr_vars; i++)
		if (!strncmp(a->vars[i].name, arg, (size_t)(eq - arg)) &&
		    !a->vars[i].name[eq - arg]) {
			fprintf(stderr,
				"ioramp: error: variable %.*s given twice on the command "
				"line\n",
				(int)(eq - arg), arg);
			return -EINVAL;
		}
	n = realloc(a->vars, (a->nr_vars + 1) * sizeof(*n));
	if (!n)
		return -ENOMEM;
	a->vars = n;
	/* a copy of the name: argv stays whole for logfile.html's "input argument scanned" */
	name = strndup(arg, (size_t)(eq - arg));
	if (!name)
		return -ENOMEM;
	a->vars[a->nr_vars++] = (struct parm_var){ .name = name, .value = eq + 1 };
	return 0;
}

/* The value of -e10 or -e 10. */
static const char *opt_value(int argc, char **argv, int *i, size_t optlen)
{
	if (argv[*i][optlen])
		return argv[*i] + optlen;
	if (*i + 1 < argc)
		return argv[++*i];
	return NULL;
}

/* -e, -i, -w take whole seconds: VDbench 5.04.07 fails on -e 1m (tests/parm [174]). */
int cli_args_time(const char *opt, const char *val, uint64_t *out, bool *has)
{
	char *end = NULL;
	unsigned long long n = 0;

	if (val && *val >= '0' && *val <= '9')
		n = strtoull(val, &end, 10);
	if (!end || *end || n > 10000000000ull) {
		fprintf(stderr,
			"ioramp: error: %s needs whole seconds such as %s 60, got '%s' (no m or h "
			"suffix)\n",
			opt, opt, val ? val : "");
		return -EINVAL;
	}
	*out = (uint64_t)n;
	*has = true;
	return 0;
}

/* --name VALUE or --name=VALUE. */
static int string_option(const char *arg, const char *name, int argc, char **argv, int *i,
			 const char **out)
{
	size_t n = strlen(name);

	if (arg[n] == '=')
		*out = arg + n + 1;
	else if (*i + 1 < argc)
		*out = argv[++*i];
	else
		*out = NULL;
	if (!*out || !**out) {
		fprintf(stderr, "ioramp: error: %s needs a value\n", name);
		return -EINVAL;
	}
	return 0;
}

/* --host-timeout SECS: whole seconds, 1 or more (an MPI job's lost-rank deadline). */
static int host_timeout(struct cli_args *a, const char *arg, int argc, char **argv, int *i)
{
	const char *v;
	char *end;
	int ret = string_option(arg, "--host-timeout", argc, argv, i, &v);

	if (ret)
		return ret;
	a->host_timeout_s = strtoull(v, &end, 10);
	if (*end || a->host_timeout_s < 1 || a->host_timeout_s > 86400) {
		fprintf(stderr,
			"ioramp: error: --host-timeout %s: expected whole seconds from 1 to 86400\n",
			v);
		return -EINVAL;
	}
	a->has_host_timeout = true;
	return 0;
}

static int long_option(struct cli_args *a, int argc, char **argv, int *i)
{
	const char *arg = argv[*i];

	if (!strcmp(arg, "--engine") && *i + 1 < argc) {
		a->engine = argv[++*i];
	} else if (!strncmp(arg, "--engine=", 9)) {
		a->engine = arg + 9;
	} else if ((!strcmp(arg, "--seed") && *i + 1 < argc) || !strncmp(arg, "--seed=", 7)) {
		const char *v = arg[6] == '=' ? arg + 7 : argv[++*i];
		char *end;

		errno = 0;
		a->seed = strtoull(v, &end, 0);
		if (!*v || *end || strchr(v, '-')) {
			fprintf(stderr, "ioramp: error: --seed needs a number, got '%s'\n", v);
			return -EINVAL;
		}
		if (errno == ERANGE) { /* strtoull saturates: two seeds would silently be one */
			fprintf(stderr,
				"ioramp: error: --seed %s does not fit in 64 bits; expected 0 to "
				"18446744073709551615\n",
				v);
			return -EINVAL;
		}
		a->has_seed = true;
	} else if (!strcmp(arg, "--json")) {
		a->is_json = true;
	} else if (!strcmp(arg, "--force")) {
		a->is_force = true;
	} else if (!strcmp(arg, "--strict")) {
		a->is_strict = true;
	} else if (!strcmp(arg, "--sla") || !strncmp(arg, "--sla=", 6)) {
		return string_option(arg, "--sla", argc, argv, i, &a->sla);
	} else if (!strcmp(arg, "--record") || !strncmp(arg, "--record=", 9)) {
		return string_option(arg, "--record", argc, argv, i, &a->record);
	} else if (!strcmp(arg, "--map") || !strncmp(arg, "--map=", 6)) {
		return string_option(arg, "--map", argc, argv, i, &a->map);
	} else if (!strcmp(arg, "--host-timeout") || !strncmp(arg, "--host-timeout=", 15)) {
		return host_timeout(a, arg, argc, argv, i);
	} else {
		fprintf(stderr, "ioramp: error: unknown option %s; see ioramp --help\n", arg);
		return -EINVAL;
	}
	return 0;
}

static int short_option(struct cli_args *a, int argc, char **argv, int *i)
{
	const char *arg = argv[*i];
	const char *v;

	switch (arg[1]) {
	case 'f':
		if (arg[2])
			return add_file(a, arg + 2);
		a->in_files = true;
		return 0;
	case 'o':
		a->outdir = opt_value(argc, argv, i, 2);
		if (!a->outdir) {
			fprintf(stderr, "ioramp: error: -o needs a directory\n");
			return -EINVAL;
		}
		return 0;
	case 'e':
		v = opt_value(argc, argv, i, 2);
		return cli_args_time("-e", v, &a->overrides.elapsed_s, &a->overrides.has_elapsed);
	case 'i':
	case 'I':
		v = opt_value(argc, argv, i, 2);
		return cli_args_time("-i", v, &a->overrides.interval_s, &a->overrides.has_interval);
	case 'w':
		v = opt_value(argc, argv, i, 2);
		return cli_args_time("-w", v, &a->overrides.warmup_s, &a->overrides.has_warmup);
	case 'v':
	case 'j': { /* data validation: -v -vr -vw, -j -jr -jro -jn -jri (reference §7) */
		char msg[256];

		if (dv_opts_cli(&a->dv, arg, msg, sizeof(msg))) {
			fprintf(stderr, "ioramp: error: %s\n", msg);
			return -EINVAL;
		}
		return 0;
	}
	case 's':
		if (!arg[2]) {
			a->is_simulate = true;
			return 0;
		}
		break;
	default: {
		int ret = cli_args_vdbench(a, argc, argv, i);

		if (ret <= 0)
			return ret;
		break;
	}
	}
	fprintf(stderr, "ioramp: error: unknown option %s; see ioramp --help\n", arg);
	return -EINVAL;
}

int cli_args_parse(struct cli_args *a, int argc, char **argv)
{
	int ret = 0;

	memset(a, 0, sizeof(*a));
	for (int i = 1; i < argc && !ret; i++) {
		char *arg = argv[i];

		if (!strncmp(arg, "--", 2)) {
			a->in_files = false;
			ret = long_option(a, argc, argv, &i);
		} else if (arg[0] == '-' && arg[1]) {
			a->in_files = false;
			ret = short_option(a, argc, argv, &i);
		} else if (strchr(arg, '=') && strchr(arg, '=') != arg) {
			a->in_files = false;
			ret = add_var(a, arg);
		} else if (a->in_files) {
			ret = add_file(a, arg);
		} else {
			fprintf(stderr,
				"ioramp: error: unexpected argument '%s'; parameter files "
				"follow -f\n",
				arg);
			ret = -EINVAL;
		}
	}
	if (!ret && !a->nr_files) {
		fprintf(stderr, "ioramp: error: no parameter file; expected -f FILE\n");
		ret = -EINVAL;
	}
	return ret;
}
