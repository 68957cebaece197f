# SPDX-License-Identifier: GPL-2.0
# Differences between kernel versions, read from the kernel's headers (see
# compat.h). Included by module/Kbuild and by the test modules' Kbuild.

# Symbol namespaces became string literals in 6.13 (and some stable trees):
# ask the headers, not the version number.
ccflags-y += $(if $(shell grep -Es 'define EXPORT_SYMBOL_NS_GPL\(sym, ns\).*__stringify\(ns\)' \
	$(srctree)/include/linux/export.h),,-DKSTATS_NS_IS_STRING)

# fprobe's shape (see compat.h).
kstats_fprobe_h := $(srctree)/include/linux/fprobe.h
ccflags-y += $(if $(shell grep -s entry_data_size $(kstats_fprobe_h)),-DKSTATS_FPROBE_ENTRY_DATA)
ccflags-y += $(if $(shell grep -s 'typedef.*fprobe_entry_cb' -A2 $(kstats_fprobe_h) | grep ftrace_regs),-DKSTATS_FPROBE_FTRACE_REGS)
