/* timeout=: SDs that stop completing I/O (stall.h). A stall is judged at interval ends, so it is
 * seen up to one interval late; an SD with nothing outstanding never stalls (a paced workload
 * may leave it idle). */
#include "stall.h"

#include <errno.h>
#include <stdlib.h>

int eng_stall_init(struct eng_stall *s, const struct parm_config *cfg, size_t nr_sds)
{
	const struct parm_general *g = &cfg->general;

	*s = (struct eng_stall){ 0 };
	if (!(g->timeout_s > 0))
		return 0;
	s->warn_ns = (uint64_t)(g->timeout_s * 1e9);
	s->abort_ns = (uint64_t)(g->timeout_abort_s * 1e9);
	s->ns = calloc(nr_sds ? nr_sds : 1, sizeof(*s->ns));
	s->is_warned = calloc(nr_sds ? nr_sds : 1, sizeof(*s->is_warned));
	s->nr_sds = nr_sds;
	return s->ns && s->is_warned ? 0 : -ENOMEM;
}

void eng_stall_fini(struct eng_stall *s)
{
	free(s->ns);
	free(s->is_warned);
	*s = (struct eng_stall){ 0 };
}

long eng_stall_check(struct eng_stall *s, const struct stats_bank *sd_banks, uint64_t elapsed_ns,
		     const char *const *names, const char *const *luns, struct rep_set *reps)
{
	long over = -1;

	for (size_t i = 0; s->warn_ns && i < s->nr_sds; i++) {
		const struct stats_bank *b = &sd_banks[i];
		uint64_t done = 0;

		for (int op = 0; op < STATS_OP_NR; op++)
			done += b->op[op].nr_ios + b->op[op].nr_errors;
		if (done || !b->nr_inflight) {
			s->ns[i] = 0;
			s->is_warned[i] = false;
			continue;
		}
		s->ns[i] += elapsed_ns;
		if (s->ns[i] >= s->warn_ns && !s->is_warned[i]) {
			s->is_warned[i] = true;
			rep_set_event(reps, &(struct rep_event){
						    .kind = REP_EV_STALL,
						    .sd = names[i],
						    .lun = luns[i],
						    .stall_s = (double)s->ns[i] / 1e9,
						    .nr_outstanding = b->nr_inflight,
					    });
		}
		if (s->abort_ns && s->ns[i] >= s->abort_ns && over < 0)
			over = (long)i;
	}
	return over;
}
