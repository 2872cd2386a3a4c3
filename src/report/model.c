/* Words for modelled drives (rep_model): one line that every output carrying a model's figures
 * shows, so that a model's curve is never taken for a measurement. */
#include "vdbtext.h"

#include <stdio.h>

void rep_model_text(const struct rep_model *m, char *buf, size_t len)
{
	char cache[96] = "no write cache";

	if (m->cache_mb > 0)
		snprintf(cache, sizeof(cache), "a %g MiB write cache at %g us", m->cache_mb,
			 m->cache_us);
	snprintf(buf, len,
		 "modelled drives, not measurements: %s; per drive %u unit%s, 4 KiB read %g us, "
		 "write %g us, beyond 4 KiB %.1f MB/s read, %.1f MB/s write per unit, %s "
		 "service, %s; virtual time",
		 m->spec, m->units, m->units == 1 ? "" : "s", m->read_us, m->write_us, m->read_mbps,
		 m->write_mbps, m->dist && m->dist[0] == 'f' ? "fixed" : "exponential", cache);
}

void rep_conlog_model_note(struct rep_conlog *c)
{
	char text[768], line[800];

	if (!c->f || !c->x->model)
		return;
	rep_model_text(c->x->model, text, sizeof(text));
	snprintf(line, sizeof(line), "ioramp: note: %s", text);
	rep_conlog_timed(c, line);
}
