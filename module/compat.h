/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Differences between kernel versions, detected from the kernel's headers
 * at build time (see Kbuild), never from the version number.
 */
#ifndef KSTATS_COMPAT_H
#define KSTATS_COMPAT_H

#include <linux/export.h>

/*
 * EXPORT_SYMBOL_NS_GPL() takes the namespace as an identifier up to 6.12
 * and as a string literal from 6.13 (and in stable trees that took the
 * change). Kbuild greps export.h and defines KSTATS_NS_IS_STRING for the
 * latter. Older kernels stringify the argument after expanding it, so the
 * identifier form works through a macro too.
 */
#ifdef KSTATS_NS_IS_STRING
#define KSTATS_NS	"KSTATS"
#else
#define KSTATS_NS	KSTATS
#endif

#endif /* KSTATS_COMPAT_H */
