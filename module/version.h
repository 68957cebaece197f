/* SPDX-License-Identifier: GPL-2.0 */
/* The one place the kstats version is written; Makefiles read it from here. */
#define KSTATS_VERSION "0.1.0"
