/* Whether a file's pages are in the page cache (at least CACHED_MIN_SHARE of them): mincore()
 * on a read-only mapping, every page of a file up to CACHED_WINDOWS windows, evenly spaced
 * windows of a larger one. Its I/O then
 * takes microseconds and does not wait on the device, which lets sparse paced SDs share one
 * thread (run_exec.c). */
#include "target.h"

#include <sys/mman.h>
#include <unistd.h>

enum {
	CACHED_WINDOW_PAGES = 4096, /* one mincore() call and its vector on the stack */
	CACHED_WINDOWS = 16,	    /* 256 MiB of 4 KiB pages checked whole */
};

/* A reclaimer takes pages of a cached file now and then (DAMON's pageout on the development
 * VM: 4-150 of 16,384 within minutes); a miss in twenty still leaves the thread that serves it
 * mostly idle at the sparse rates this is asked for (run_exec.c). */
#define CACHED_MIN_SHARE 0.95

bool eng_target_is_cached(const struct eng_target *t)
{
	unsigned char vec[CACHED_WINDOW_PAGES];
	long page = sysconf(_SC_PAGESIZE);
	uint64_t pages, nr_win, step, nr_seen = 0, nr_in = 0;
	char *map;

	if (t->fd < 0 || t->kind != ENG_TARGET_FILE || t->is_direct || !t->size_bytes || page <= 0)
		return false;
	map = mmap(NULL, t->size_bytes, PROT_READ, MAP_SHARED, t->fd, 0);
	if (map == MAP_FAILED)
		return false;
	pages = (t->size_bytes + (uint64_t)page - 1) / (uint64_t)page;
	nr_win = (pages + CACHED_WINDOW_PAGES - 1) / CACHED_WINDOW_PAGES;
	step = nr_win > CACHED_WINDOWS ? nr_win / CACHED_WINDOWS : 1;
	for (uint64_t win = 0; win < nr_win; win += step) {
		uint64_t first = win * CACHED_WINDOW_PAGES;
		uint64_t nr =
			pages - first < CACHED_WINDOW_PAGES ? pages - first : CACHED_WINDOW_PAGES;

		if (mincore(map + first * (uint64_t)page, nr * (uint64_t)page, vec))
			break;
		for (uint64_t i = 0; i < nr; i++)
			nr_in += vec[i] & 1;
		nr_seen += nr;
	}
	munmap(map, t->size_bytes);
	return nr_seen && (double)nr_in >= CACHED_MIN_SHARE * (double)nr_seen;
}
