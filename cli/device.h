/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The device, /dev/kstats, and the module behind it (device.c).
 */
#ifndef KSTATSCTL_DEVICE_H
#define KSTATSCTL_DEVICE_H

#include "kstatsctl.h"

/* Opens the device (loading the module when allowed); fd or -1 (printed). */
int ks_dev_open(void);
/* Opens it if it is there, without loading anything or printing; fd or -1. */
int ks_dev_try_open(void);
enum ks_installed { KS_INSTALLED, KS_NOT_INSTALLED, KS_INSTALLED_UNKNOWN };
/*
 * kstats.ko as modprobe would find it, and its version. KS_INSTALLED_UNKNOWN
 * when libkmod cannot be opened or cannot read /lib/modules: @why says so.
 */
enum ks_installed ks_module_file(char *path, size_t plen, char *ver, size_t vlen,
				 const char **why);
const char *ks_dev_path(void);
/*
 * An ioctl failed with @err: prints "what: reason" with the hint that fits.
 * Returns the exit code (1).
 */
int ks_dev_error(int err, const char *what);
int ks_dev_info(int fd, struct kstats_info *info);	/* 0 or -errno */
int ks_dev_list(int fd, struct kstats_metric_info **out, uint32_t *nr);
/* The kernel's lockdown mode ("none", "integrity", ...), or NULL. */
const char *ks_lockdown_mode(char *buf, size_t len);
/* Is the module loaded (/sys/module/kstats)? */
bool ks_module_loaded(void);

#endif /* KSTATSCTL_DEVICE_H */
