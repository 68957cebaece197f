// SPDX-License-Identifier: GPL-2.0
/*
 * A --by stack key's frames as text: what 'show --folded' prints of a live
 * key and what 'snapshot' keeps of it in a file (format 8), named the same
 * way in both, so that a file prints as the live command does. A frame is
 * "func+0xoff [module]" from /proc/kallsyms, or "[unknown]" where no symbol
 * holds the address; never the address itself, which would give the
 * kernel's KASLR offset away. No frames at all (withheld) when the module
 * gave no addresses (a reader without privilege) or kallsyms hides them.
 * A user-space function's frames are named through their process, as its
 * outliers' are ("run+0x4f [utarget]"), "[unknown]" once it is gone.
 */
#include <stdlib.h>
#include <string.h>

#include "kstatsctl.h"
#include "model.h"
#include "outliers.h"

struct ks_stack_names *ks_stack_name(const struct ks_key_stack *st, struct ks_ksyms *k)
{
	struct ks_stack_names *s = xcalloc(1, sizeof(*s));
	char sym[600];
	uint32_t f;

	bool user = st->flags & KSTATS_OUTLIER_USER;

	s->flags = st->flags & (KSTATS_OUTLIER_TRUNCATED | KSTATS_OUTLIER_NOADDR);
	s->taken = st->nr < KSTATS_OUTLIER_FRAMES ? st->nr : KSTATS_OUTLIER_FRAMES;
	if (s->taken && !user && !(s->flags & KSTATS_OUTLIER_NOADDR) && !k->loaded)
		ks_ksyms_load(k);
	if (s->taken && !user && k->hidden)
		s->flags |= KSTATS_OUTLIER_NOADDR;
	if (s->flags & KSTATS_OUTLIER_NOADDR)
		return s;
	for (f = 0; f < s->taken; f++, s->nr++) {
		const char *name = !user ? ks_ksym_name(sym, sizeof(sym), k, st->frames[f]) :
				   ks_uaddr_namer ? ks_uaddr_namer(sym, sizeof(sym), st->tgid,
								   st->frames[f]) : NULL;

		s->frame[f] = xstrdup(name ? name : "[unknown]");
	}
	return s;
}

char *ks_stack_folded_line(const struct ks_stack_names *s, bool other, const char *func)
{
	const char *frames[KSTATS_OUTLIER_FRAMES];
	const char *root = NULL;
	uint32_t f, n = 0;

	if (other)
		root = "[other]";
	else if (s->flags & KSTATS_OUTLIER_NOADDR)
		root = "[withheld]";
	else if (!s->nr)
		root = "[no stack]";
	else if (s->flags & KSTATS_OUTLIER_TRUNCATED)
		root = "[truncated]";
	for (f = 0; !other && f < s->nr; f++)
		frames[n++] = s->frame[f];
	return ks_folded_join(root, frames, n, func);
}
