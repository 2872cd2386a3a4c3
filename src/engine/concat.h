/* concatenatesds=yes: the SDs of a run as one concatenated lun (VDbench 5.04.07 guide 1.16).
 * Offsets are drawn over the concatenation; each I/O goes to the member it falls in. */
#ifndef IORAMP_ENGINE_CONCAT_H
#define IORAMP_ENGINE_CONCAT_H

#include <stdint.h>

struct eng_concat {
	uint32_t nr;		  /* members; 0: no concatenation */
	uint32_t *run_sd;	  /* member m's SD in the run */
	uint64_t *start_bytes;	  /* where member m starts in the concatenation */
	uint64_t *len_bytes;	  /* its lun bytes (the whole lun, as VDbench counts them) */
	uint64_t total_bytes;	  /* the sum */
	uint64_t guard_bytes;	  /* block 0 of every member, never touched: the largest transfer */
};

/*
 * The member an I/O of size bytes at concatenation offset off goes to, with its offset there
 * in *member_off. As VDbench 5.04.07 does (observed, localhost-0.stdout.html: "lba straddles
 * two SDs. Switched to lba=0 on sd=...", then "Not allowed to access sd=sd2,lba=0. Switched to
 * lba=4096"): an I/O never straddles two members, one that would goes to the next member;
 * and none is done at a member's offset 0: it moves to guard_bytes (an offset between stays:
 * VDbench wrote from 2560 on a member starting 1536 bytes off the 4 KiB grid). A member too
 * small for the I/O passes it to the next; past the last one it goes to the first.
 */
uint32_t eng_concat_map(const struct eng_concat *c, uint64_t off, uint32_t size,
			uint64_t *member_off);

void eng_concat_fini(struct eng_concat *c);

#endif /* IORAMP_ENGINE_CONCAT_H */
