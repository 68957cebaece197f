/* SPDX-License-Identifier: GPL-2.0 */
/* The /dev/kstats commands, called by dev.c with the argument copied in. */
#ifndef KSTATS_COMMANDS_H
#define KSTATS_COMMANDS_H

#include "metric.h"

bool kstats_file_privileged(struct file *file);
int kstats_arg_name(const __u8 name[KSTATS_NAME_LEN]);
int kstats_arg_lookup_name(const __u8 name[KSTATS_NAME_LEN]);
bool kstats_arg_zero(const void *p, size_t len);

int kstats_cmd_info(struct file *file, void *arg);
int kstats_cmd_create(struct file *file, void *arg);
int kstats_cmd_delete(struct file *file, void *arg);
int kstats_cmd_list(struct file *file, void *arg);
int kstats_cmd_control(struct file *file, void *arg);
int kstats_cmd_snapshot(struct file *file, void *arg);
int kstats_cmd_record(struct file *file, void *arg);
int kstats_cmd_trace(struct file *file, void *arg);
int kstats_cmd_untrace(struct file *file, void *arg);
int kstats_cmd_attach(struct file *file, void *arg);
int kstats_cmd_outliers(struct file *file, void *arg);	/* trace_outlier.c */

#endif /* KSTATS_COMMANDS_H */
