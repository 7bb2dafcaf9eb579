/* A per-operator profiler for models compiled by microaot: drop op_profiler.c into your build, compile the
 * model with MICROAOT_PROFILE (CMake -DMODEL_PROFILE=ON, Make MODEL_PROFILE = 1) and give the platform
 * hooks a cycle counter and a log (microaot_platform_cycle_count, microaot_platform_log). It implements
 * microaot_platform_op_begin/op_end; no malloc, no printf, no floating point. */
#ifndef OP_PROFILER_H
#define OP_PROFILER_H

#ifdef __cplusplus
extern "C" {
#endif

/* Steps (operators of one run) with a row of their own; later steps share one row, "(later-steps)". */
#ifndef OP_PROFILER_MAX_STEPS
#define OP_PROFILER_MAX_STEPS 128
#endif

/* Forgets every measurement. */
void op_profiler_reset(void);

/* Prints, one line at a time through microaot_platform_log, a table of every step measured since the
 * last reset: step, operator, runs, total counts, counts per run and share of the total. `unit` names
 * what microaot_platform_cycle_count counts ("cycles", "ns", ...). */
void op_profiler_report(const char *unit);

#ifdef __cplusplus
}
#endif

#endif /* OP_PROFILER_H */
