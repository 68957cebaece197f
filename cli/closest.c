// SPDX-License-Identifier: GPL-2.0
/*
 * "did you mean": the known name closest to one that matched nothing, by
 * edit distance (insertions, deletions, substitutions and swaps of two
 * neighbours), when it is close enough to be a typo.
 */
#include <stdlib.h>
#include <string.h>

#include "kstatsctl.h"

/* Optimal string alignment distance of @a and @b (both < KSTATS_NAME_LEN + 1). */
static size_t distance(const char *a, const char *b)
{
	size_t la = strlen(a), lb = strlen(b), i, k, best;
	size_t *d, w = lb + 1;

	d = xcalloc((la + 1) * w, sizeof(*d));
	for (i = 0; i <= la; i++)
		d[i * w] = i;
	for (k = 0; k <= lb; k++)
		d[k] = k;
	for (i = 1; i <= la; i++)
		for (k = 1; k <= lb; k++) {
			size_t sub = d[(i - 1) * w + k - 1] + (a[i - 1] != b[k - 1]);
			size_t del = d[(i - 1) * w + k] + 1, ins = d[i * w + k - 1] + 1;

			best = sub < del ? sub : del;
			best = ins < best ? ins : best;
			if (i > 1 && k > 1 && a[i - 1] == b[k - 2] && a[i - 2] == b[k - 1] &&
			    d[(i - 2) * w + k - 2] + 1 < best)
				best = d[(i - 2) * w + k - 2] + 1;
			d[i * w + k] = best;
		}
	best = d[la * w + lb];
	free(d);
	return best;
}

const char *ks_closest(const char *s, const char *const *names, size_t nr)
{
	size_t i, d, best = (size_t)-1, len = strlen(s);
	const char *pick = NULL;

	if (len >= KSTATS_NAME_LEN)
		return NULL;
	for (i = 0; i < nr; i++) {
		if (strlen(names[i]) >= KSTATS_NAME_LEN)
			continue;
		d = distance(s, names[i]);
		if (d < best) {
			best = d;
			pick = names[i];
		}
	}
	/* A typo: at most 2 edits, and fewer than a third of the name. */
	return best <= 2 && best * 3 < len ? pick : NULL;
}
