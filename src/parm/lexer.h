/* Private to src/parm: splitting a logical line into keyword=value items. */
#ifndef IORAMP_PARM_LEXER_H
#define IORAMP_PARM_LEXER_H

#include "source.h"

struct parm_item {
	char *key; /* as written */
	struct parm_loc key_loc;
	struct parm_val val;
};

/* Splits lg into items at top-level commas; values become words or nested lists with quotes
 * removed. *items is malloc'ed (free with parm_items_free()). Returns the count or -EINVAL. */
int parm_lex(const struct parm_source *src, const struct parm_logical *lg, struct parm_item **items,
	     struct parm_err *err);

void parm_items_free(struct parm_item *items, size_t nr);
void parm_val_fini(struct parm_val *v);

#endif /* IORAMP_PARM_LEXER_H */
