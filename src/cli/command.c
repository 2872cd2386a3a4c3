/* startcmd= and endcmd= (reference §2, §6): a shell command before the first run and after the
 * last (general), or around every run of an RD, with $output replaced by the output directory.
 * Its output goes where ioramp's console goes; a command that fails is reported, not fatal. */
#include "cli.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>

#include "ioramp/parm.h"

/* cmd=(command,cons|sum|log|master): the command is the first item. */
static const char *command_text(const struct parm_val *v)
{
	if (v->kind == PARM_VAL_LIST)
		return v->nr_items && v->items[0].kind == PARM_VAL_WORD ? v->items[0].text : "";
	return v->text;
}

/* The command with every "$output" replaced (malloc'ed), or NULL. */
static char *expand(const char *cmd, const char *outdir)
{
	size_t n = strlen(cmd) + 1, olen = strlen(outdir);
	const char *p;
	char *out, *q;

	for (p = cmd; (p = strstr(p, "$output")); p += 7)
		n += olen;
	out = malloc(n);
	if (!out)
		return NULL;
	for (p = cmd, q = out; *p;) {
		if (!strncmp(p, "$output", 7)) {
			memcpy(q, outdir, olen);
			q += olen;
			p += 7;
		} else {
			*q++ = *p++;
		}
	}
	*q = '\0';
	return out;
}

int cli_command_run(const struct parm_val *v, const char *outdir)
{
	char *cmd = expand(command_text(v), outdir ? outdir : ".");
	int st;

	if (!cmd)
		return -1;
	fflush(stdout);
	st = system(cmd);
	if (st == -1 || !WIFEXITED(st) || WEXITSTATUS(st))
		fprintf(stderr, "%s:%u:%u: warning: command '%s' failed (%s %d)\n", v->loc.file,
			v->loc.line, v->loc.col, cmd, WIFEXITED(st) ? "exit status" : "signal",
			WIFEXITED(st) ? WEXITSTATUS(st) : WTERMSIG(st));
	free(cmd);
	return st == -1 || !WIFEXITED(st) || WEXITSTATUS(st) ? -1 : 0;
}
