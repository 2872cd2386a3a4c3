/* The profile deriver (trace.h): read the traces (profile_scan.c), model every device
 * (profile_model.c), write VDbench parameters (profile_emit.c). */
#include "profile.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

int trace_profile_write(const struct trace_profile_cfg *cfg, FILE *out, struct trace_fid **fid,
			struct trace_err *err)
{
	struct prof p = { .cfg = cfg, .err = err };
	int ret;

	memset(err, 0, sizeof(*err));
	if (fid)
		*fid = NULL;
	p.files = calloc(cfg->nr_paths ? cfg->nr_paths : 1, sizeof(*p.files));
	if (!p.files || trace_fid_new(&p.fid) < 0) {
		free(p.files);
		snprintf(err->msg, sizeof(err->msg), "out of memory");
		return -ENOMEM;
	}
	for (size_t i = 0; i < cfg->nr_paths; i++)
		p.files[i].path = cfg->paths[i];
	ret = prof_scan(&p);
	if (ret == 0 && !p.nr_ios) {
		snprintf(err->file, sizeof(err->file), "%s", cfg->nr_paths ? cfg->paths[0] : "");
		snprintf(err->msg, sizeof(err->msg), "no read or write I/O: nothing to profile");
		ret = -ENODATA;
	}
	if (ret == 0)
		ret = prof_model(&p);
	if (ret == -ENOMEM)
		snprintf(err->msg, sizeof(err->msg), "out of memory");
	if (ret == 0)
		prof_emit(out, &p);
	if (ret == 0 && fid) {
		*fid = p.fid;
		p.fid = NULL;
	}
	trace_fid_free(p.fid);
	prof_fini(&p);
	return ret;
}
