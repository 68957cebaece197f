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

/*
 * fprobe: added in 5.18; per-call entry data (what makes a call that sleeps
 * or migrates measurable) in 6.4; handlers take struct ftrace_regs instead
 * of struct pt_regs from 6.14. Kbuild reads include/linux/fprobe.h and
 * defines KSTATS_FPROBE_ENTRY_DATA and KSTATS_FPROBE_FTRACE_REGS. Without
 * entry data kstats does not use fprobe at all.
 */
#if IS_ENABLED(CONFIG_FPROBE) && defined(KSTATS_FPROBE_ENTRY_DATA)
#define KSTATS_HAVE_FPROBE
#include <linux/fprobe.h>
#ifdef KSTATS_FPROBE_FTRACE_REGS
#define kstats_fprobe_regs ftrace_regs
#else
#define kstats_fprobe_regs pt_regs
#endif
#endif

/*
 * Tracepoint probes are registered with a prototype that ignores the
 * event's arguments, which is fine on the C ABI but not under clang's
 * control-flow integrity, which checks the callee's type.
 */
#if !IS_ENABLED(CONFIG_CFI_CLANG)
#define KSTATS_HAVE_TRACEPOINT_PAIRS
#endif

#endif /* KSTATS_COMPAT_H */
