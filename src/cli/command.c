/* startcmd= and endcmd= (reference §2, §6): a shell command before the first run and after the
 * last (general), or around every run of an RD, with $output replaced by the output directory.
 * As VDbench 5.04.07 (observed): the console and logfile say "Start/end command: executing
 * 'CMD'" (and "execute(): CMD" where the master runs it: general commands, an RD's with
 * master); an RD's other commands run on its slave, whose lines carry "localhost-0: ". Each
 * line the command prints becomes "Cmd: LINE" in logfile.html (a slave's: in
 * localhost-0.stdout.html instead, after its "Start/end command: executing", "Message to
 * master: ..." and "execute():" lines), also on the console with cons (a slave's log then
 * says "Message to master: Cmd: LINE"); with sum "Cmd: LINE " (a trailing blank) in
 * summary.html alone. VDbench loses what a slave's command prints with sum; ioramp puts it in
 * summary.html too.
 * A command that fails is reported, not fatal. */
#include "cli.h"

#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/wait.h>

#include "ioramp/parm.h"
#include "ioramp/report.h"

/* cmd=(command,cons|sum|log|master): the command is the first item. */
static const char *command_text(const struct parm_val *v)
{
	if (v->kind == PARM_VAL_LIST)
		return v->nr_items && v->items[0].kind == PARM_VAL_WORD ? v->items[0].text : "";
	return v->text;
}

/* Whether the list's options (after the command) hold word. */
static bool has_option(const struct parm_val *v, const char *word)
{
	for (size_t i = 1; v->kind == PARM_VAL_LIST && i < v->nr_items; i++)
		if (v->items[i].kind == PARM_VAL_WORD && !strcasecmp(v->items[i].text, word))
			return true;
	return false;
}

/* How a command's lines are told: where it runs, its options, whether after its run. */
struct cmd_how {
	bool is_slave;
	bool is_cons;
	bool is_sum;
	bool is_end;
};

/* One line a command printed, where VDbench puts it: see the head of this file. */
static void cmd_line(struct rep_set *reps, const struct cmd_how *how, const char *line)
{
	const char *who = how->is_slave ? "localhost-0: " : "";

	if (how->is_cons) {
		rep_set_messagef(reps, "%sCmd: %s", who, line);
		if (how->is_slave)
			rep_set_slave_notef(reps, how->is_end, "Message to master: Cmd: %s", line);
	} else if (how->is_sum) { /* VDbench ends these with a blank (observed) */
		rep_set_sum_notef(reps, "%sCmd: %s ", who, line);
	} else if (how->is_slave) {
		rep_set_slave_notef(reps, how->is_end, "Cmd: %s", line);
	} else {
		rep_set_log_notef(reps, "Cmd: %s", line);
	}
}

/* Runs cmd with its output and errors read back line by line as "Cmd: LINE". Returns the
 * status as system() does, -1 when it could not start. */
static int run_captured(const char *cmd, struct rep_set *reps, const struct cmd_how *how)
{
	size_t len = strlen(cmd) + 16;
	char *sh = malloc(len), line[1024];
	FILE *p;

	if (!sh)
		return -1;
	snprintf(sh, len, "{ %s\n} 2>&1", cmd); /* the newline ends a command with a comment */
	fflush(stdout);
	p = popen(sh, "r");
	free(sh);
	if (!p)
		return -1;
	while (fgets(line, sizeof(line), p)) {
		line[strcspn(line, "\n")] = '\0';
		if (reps)
			cmd_line(reps, how, line);
	}
	return pclose(p);
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

int cli_command_run(const struct parm_val *v, const char *outdir, struct rep_set *reps,
		    enum cli_cmd_when when)
{
	char *cmd = expand(command_text(v), outdir ? outdir : ".");
	struct cmd_how how = {
		.is_slave = when != CLI_CMD_GENERAL && !has_option(v, "master"),
		.is_cons = has_option(v, "cons"),
		.is_sum = has_option(v, "sum"),
		.is_end = when == CLI_CMD_RD_END,
	};
	int st;

	if (!cmd)
		return -1;
	if (reps) {
		rep_set_messagef(reps, "%sStart/end command: executing '%s'",
				 how.is_slave ? "localhost-0: " : "", cmd);
		if (!how.is_slave) {
			rep_set_messagef(reps, "execute(): %s", cmd);
		} else {
			rep_set_slave_notef(reps, how.is_end, "Start/end command: executing '%s'",
					    cmd);
			rep_set_slave_notef(reps, how.is_end,
					    "Message to master: Start/end command: executing '%s'",
					    cmd);
			rep_set_slave_notef(reps, how.is_end, "execute(): %s", cmd);
		}
	}
	st = run_captured(cmd, reps, &how);
	if (st == -1 || !WIFEXITED(st) || WEXITSTATUS(st))
		fprintf(stderr, "%s:%u:%u: warning: command '%s' failed (%s %d)\n", v->loc.file,
			v->loc.line, v->loc.col, cmd, WIFEXITED(st) ? "exit status" : "signal",
			WIFEXITED(st) ? WEXITSTATUS(st) : WTERMSIG(st));
	free(cmd);
	return st == -1 || !WIFEXITED(st) || WEXITSTATUS(st) ? -1 : 0;
}
