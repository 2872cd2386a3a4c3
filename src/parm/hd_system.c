/* hd= system= names must resolve, as VDbench checks them before -s lists anything ([246]).
 * Kept apart from reading: it asks the resolver, so the command line calls it, not the fuzzer. */
#include "ioramp/parm.h"

#include <netdb.h>
#include <string.h>
#include <sys/socket.h>

int parm_hd_check_systems(const struct parm_config *cfg, struct parm_err *err)
{
	for (size_t i = 0; i < cfg->nr_hds; i++) {
		const struct parm_hd *hd = &cfg->hds[i];
		const struct parm_val *v = hd->set.val[PARM_KW_SYSTEM];
		struct addrinfo hints = { .ai_family = AF_UNSPEC, .ai_socktype = SOCK_STREAM };
		struct addrinfo *res = NULL;
		int ret;

		if (!hd->system || !v)
			continue;
		ret = getaddrinfo(hd->system, NULL, &hints, &res);
		if (res)
			freeaddrinfo(res);
		if (ret)
			return parm_errf(err, &v->loc, "hd=%s: host '%s' does not exist (%s)",
					 hd->name, hd->system, gai_strerror(ret));
	}
	return 0;
}
