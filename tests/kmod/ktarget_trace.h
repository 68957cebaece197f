/* SPDX-License-Identifier: GPL-2.0 */
/* Trace events of the tracing target: a module's own tracepoints. */
#undef TRACE_SYSTEM
#define TRACE_SYSTEM kstats_target

#if !defined(KTARGET_TRACE_H) || defined(TRACE_HEADER_MULTI_READ)
#define KTARGET_TRACE_H

#include <linux/tracepoint.h>

#include "ktarget_values.h"

DECLARE_EVENT_CLASS(ktarget_mark,
	TP_PROTO(unsigned int n),
	TP_ARGS(n),
	TP_STRUCT__entry(__field(unsigned int, n)),
	TP_fast_assign(__entry->n = n;),
	TP_printk("n=%u", __entry->n)
);

DEFINE_EVENT(ktarget_mark, ktarget_begin, TP_PROTO(unsigned int n), TP_ARGS(n));
DEFINE_EVENT(ktarget_mark, ktarget_end, TP_PROTO(unsigned int n), TP_ARGS(n));

/*
 * Around each call of ktarget_value() (ktarget_values.c): its argument at
 * the start, its return value when done, and the chain o->mid->inner of
 * both. Their records hold id (o->id), which is no argument, and the
 * argument again under another name (val, res): fields only the record
 * has, read through perf (trace --value val; v stays the argument, which
 * a name both have means). TRACE_EVENT: each event is its own class, so BTF
 * names the arguments on every kernel (trace_event_raw_event_EVENT). C's
 * own types in the record: bpftrace 0.17 compiles its format without the
 * kernel's (u32 is unknown to it where the module has no BTF).
 */
TRACE_EVENT(ktarget_value_start,
	TP_PROTO(struct kv_outer *o, long v),
	TP_ARGS(o, v),
	TP_STRUCT__entry(__field(unsigned int, id) __field(long, v) __field(long, val)),
	TP_fast_assign(__entry->id = o->id; __entry->v = v; __entry->val = v;),
	TP_printk("id=%u v=%ld val=%ld", __entry->id, __entry->v, __entry->val)
);

TRACE_EVENT(ktarget_value_done,
	TP_PROTO(struct kv_outer *o, long ret),
	TP_ARGS(o, ret),
	TP_STRUCT__entry(__field(unsigned int, id) __field(long, ret) __field(long, res)),
	TP_fast_assign(__entry->id = o->id; __entry->ret = ret; __entry->res = ret;),
	TP_printk("id=%u ret=%ld res=%ld", __entry->id, __entry->ret, __entry->res)
);

#endif /* KTARGET_TRACE_H */

#undef TRACE_INCLUDE_PATH
#define TRACE_INCLUDE_PATH .
#undef TRACE_INCLUDE_FILE
#define TRACE_INCLUDE_FILE ktarget_trace
#include <trace/define_trace.h>
