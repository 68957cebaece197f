/* SPDX-License-Identifier: GPL-2.0 */
/* Trace events of the tracing target: a module's own tracepoints. */
#undef TRACE_SYSTEM
#define TRACE_SYSTEM kstats_target

#if !defined(KTARGET_TRACE_H) || defined(TRACE_HEADER_MULTI_READ)
#define KTARGET_TRACE_H

#include <linux/tracepoint.h>

DECLARE_EVENT_CLASS(ktarget_mark,
	TP_PROTO(unsigned int n),
	TP_ARGS(n),
	TP_STRUCT__entry(__field(unsigned int, n)),
	TP_fast_assign(__entry->n = n;),
	TP_printk("n=%u", __entry->n)
);

DEFINE_EVENT(ktarget_mark, ktarget_begin, TP_PROTO(unsigned int n), TP_ARGS(n));
DEFINE_EVENT(ktarget_mark, ktarget_end, TP_PROTO(unsigned int n), TP_ARGS(n));

#endif /* KTARGET_TRACE_H */

#undef TRACE_INCLUDE_PATH
#define TRACE_INCLUDE_PATH .
#undef TRACE_INCLUDE_FILE
#define TRACE_INCLUDE_FILE ktarget_trace
#include <trace/define_trace.h>
