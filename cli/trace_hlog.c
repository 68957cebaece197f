// SPDX-License-Identifier: GPL-2.0
/*
 * trace --interval S --output FILE: each interval also goes to FILE as a
 * line per metric of an HdrHistogram interval log, as export --format hdr
 * writes one (export_hdr.c), so that 'kstatsctl plot heatmap FILE NAME' or
 * any HdrHistogram reader is one step away. The first interval starts when the
 * trace does (it recorded nothing before); each is written in one write and
 * flushed to the disk, so the file is a valid log up to its last interval
 * whatever ends the run.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "kstatsctl.h"
#include "hdr.h"
#include "model.h"
#include "trace.h"

static double realtime_s(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_REALTIME, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

int ks_trace_hlog_open(struct ks_trace_hlog *h, const char *path)
{
	memset(h, 0, sizeof(*h));
	h->fd = -1;
	if (!path)
		return 0;
	h->path = path;
	h->mem = open_memstream(&h->text, &h->len);
	if (!h->mem)
		return ks_fail(EXIT_RUNTIME, NULL, "open_memstream: %s", strerror(errno));
	h->fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
	if (h->fd < 0)
		return ks_fail(EXIT_RUNTIME, NULL, "--output: %s: %s", path, strerror(errno));
	h->base_s = h->tick_s = realtime_s();
	ks_hlog_write_header(h->mem, h->base_s);
	return ks_hlog_push(h->mem, &h->text, &h->len, h->fd, path);
}

int ks_trace_hlog_add(struct ks_trace_hlog *h, const struct ks_metric *prev, size_t nprev,
		      const struct ks_metric *cur, size_t n)
{
	/* Read only: a set is the shape ks_hlog_write_lines() takes. */
	struct ks_set before = { .m = (struct ks_metric *)prev, .nr = nprev };
	struct ks_set now = { .m = (struct ks_metric *)cur, .nr = n };
	double tick = realtime_s();
	int rc;

	if (h->fd < 0)
		return 0;
	ks_hlog_write_lines(h->mem, &now, &before, h->base_s, h->tick_s);
	rc = ks_hlog_push(h->mem, &h->text, &h->len, h->fd, h->path);
	h->tick_s = tick;
	return rc;
}

void ks_trace_hlog_close(struct ks_trace_hlog *h)
{
	if (h->fd >= 0)
		close(h->fd);
	if (h->mem)
		fclose(h->mem);
	free(h->text);
	h->fd = -1;
	h->mem = NULL;
	h->text = NULL;
}
