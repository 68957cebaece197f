// SPDX-License-Identifier: GPL-2.0
/*
 * A tracepoint end read by its record (KSTATS_OPERAND_FIELD): the fields
 * its TP_fast_assign writes. A probe of the tracepoint gets the event's
 * arguments, never the record, which the kernel builds only for a
 * consumer: a trace buffer, or perf. So such an end is a perf counter on
 * the event, in the kernel, one per online CPU, sampling every hit (a
 * period of 1, which perf never throttles) with the raw record: perf
 * builds the record in its per-CPU buffer and calls the overflow handler
 * with it, in the event's context, before the event's caller goes on. The
 * handler passes the record's address as the end's only argument
 * (trace_expr.c reads a field at offsets[0] from it).
 *
 * CPUs that come online after the attach have no counter: their hits are
 * not seen (kstats(4)).
 */
#include <linux/cpu.h>
#include <linux/perf_event.h>
#include <linux/trace_events.h>

#include "trace.h"

#if defined(CONFIG_PERF_EVENTS) && defined(CONFIG_EVENT_TRACING)
/* The record perf built for this hit; PERF_SAMPLE_RAW asked for it. */
static unsigned long kstats_record_of(struct perf_sample_data *data)
{
	return data->raw ? (unsigned long)data->raw->frag.data : 0;
}

static void kstats_record_point(struct perf_event *event, struct perf_sample_data *data,
				struct pt_regs *regs)
{
	const unsigned long args[KSTATS_SECTION_ARGS] = { kstats_record_of(data) };

	kstats_point_hit(event->overflow_handler_context, args, 0);
}

static void kstats_record_start(struct perf_event *event, struct perf_sample_data *data,
				struct pt_regs *regs)
{
	const unsigned long args[KSTATS_SECTION_ARGS] = { kstats_record_of(data) };

	preempt_disable_notrace();
	kstats_section_begin(event->overflow_handler_context, args);
	preempt_enable_notrace();
}

static void kstats_record_end(struct perf_event *event, struct perf_sample_data *data,
			      struct pt_regs *regs)
{
	const unsigned long args[KSTATS_SECTION_ARGS] = { kstats_record_of(data) };

	preempt_disable_notrace();
	kstats_section_end(event->overflow_handler_context, args, 0);
	preempt_enable_notrace();
}

/*
 * A counter per online CPU on @p's end @end (0: the point or the start),
 * whose trace event file is held. 0, or an error with nothing left.
 */
int kstats_record_attach(struct kstats_probe *p, unsigned int end)
{
	struct perf_event_attr attr = {
		.type = PERF_TYPE_TRACEPOINT,
		.size = sizeof(attr),
		.sample_period = 1,
		.sample_type = PERF_SAMPLE_RAW,
	};
	perf_overflow_handler_t handler = p->point ? kstats_record_point :
					  end ? kstats_record_end : kstats_record_start;
	struct perf_event *ev;
	int cpu, err = 0;

	if (!p->tp_file[end])
		return -EINVAL;	/* "tp:event": commands.c refuses it first */
	attr.config = p->tp_file[end]->event_call->event.type;
	p->tp_rec[end] = alloc_percpu(struct perf_event *);
	if (!p->tp_rec[end])
		return -ENOMEM;
	cpus_read_lock();
	for_each_online_cpu(cpu) {
		ev = perf_event_create_kernel_counter(&attr, cpu, NULL, handler, p);
		if (IS_ERR(ev)) {
			err = PTR_ERR(ev);
			break;
		}
		*per_cpu_ptr(p->tp_rec[end], cpu) = ev;
	}
	cpus_read_unlock();
	if (err)
		kstats_record_detach(p, end);
	return err;
}

/* Every counter of @p's end @end released; then no handler of it runs. */
void kstats_record_detach(struct kstats_probe *p, unsigned int end)
{
	struct perf_event *ev;
	int cpu;

	if (!p->tp_rec[end])
		return;
	for_each_possible_cpu(cpu) {
		ev = *per_cpu_ptr(p->tp_rec[end], cpu);
		if (ev)
			perf_event_release_kernel(ev);
	}
	/* A handler interrupted on its CPU before the release still runs. */
	tracepoint_synchronize_unregister();
	free_percpu(p->tp_rec[end]);
	p->tp_rec[end] = NULL;
}
#else
int kstats_record_attach(struct kstats_probe *p, unsigned int end)
{
	return -EOPNOTSUPP;
}

void kstats_record_detach(struct kstats_probe *p, unsigned int end)
{
}
#endif
