/* The per-operator profiler (op_profiler.h): the executor's op hooks time each step with the platform's
 * cycle counter; the report formats its table itself, one line at a time, so it runs on any target. */
#include "op_profiler.h"

#include <stddef.h>
#include <stdint.h>

#include "microaot/platform.h"

typedef struct {
  const char *op_name;
  uint32_t runs;
  uint64_t counts;
} step_record;

static step_record records[OP_PROFILER_MAX_STEPS];
static uint64_t unlisted_counts; /* steps at OP_PROFILER_MAX_STEPS and beyond */
static uint32_t step_start;

void op_profiler_reset(void) {
  size_t i;
  for (i = 0; i < OP_PROFILER_MAX_STEPS; ++i) {
    records[i].runs = 0u;
    records[i].counts = 0u;
  }
  unlisted_counts = 0u;
}

/* The counter is read last in op_begin and first in op_end, so the profiler's own work is not timed. */
void microaot_platform_op_begin(int step, const char *op_name) {
  (void)step;
  (void)op_name;
  step_start = microaot_platform_cycle_count();
}

void microaot_platform_op_end(int step, const char *op_name) {
  const uint32_t elapsed = microaot_platform_cycle_count() - step_start; /* unsigned: right across a wrap */
  if (step < 0) return;
  if (step >= OP_PROFILER_MAX_STEPS) {
    unlisted_counts += elapsed;
    return;
  }
  records[step].op_name = op_name;
  records[step].runs += 1u;
  records[step].counts += elapsed;
}

/* A line being formatted: fields in columns, always NUL-terminated. */
typedef struct {
  char text[112];
  size_t used;
} line;

static void put_char(line *l, char c) {
  if (l->used + 1u < sizeof l->text) l->text[l->used++] = c;
  l->text[l->used] = '\0';
}

/* `text` aligned in `width` characters (left or right), then a space; a longer text pushes the rest. */
/* Logs the line without the separator after its last field. */
static void log_line(line *l) {
  while (l->used > 0u && l->text[l->used - 1u] == ' ') l->text[--l->used] = '\0';
  microaot_platform_log(l->text);
}

static void put_field(line *l, const char *text, size_t width, int right) {
  size_t length = 0, pad;
  while (text[length] != '\0') ++length;
  for (pad = length; right && pad < width; ++pad) put_char(l, ' ');
  while (*text != '\0') put_char(l, *text++);
  for (pad = length; !right && pad < width; ++pad) put_char(l, ' ');
  put_char(l, ' ');
}

/* `value` in decimal at the end of `buffer`, with a point before the last `decimals` digits (123, 1 ->
 * "12.3"); returns where the text starts. */
static const char *decimal(char (*buffer)[28], uint64_t value, unsigned decimals) {
  char *p = *buffer + sizeof *buffer;
  unsigned n = 0;
  *--p = '\0';
  do {
    if (decimals != 0u && n == decimals) *--p = '.';
    *--p = (char)('0' + (int)(value % 10u));
    value /= 10u;
    ++n;
  } while (value != 0u || n <= decimals);
  return p;
}

static void put_number(line *l, uint64_t value, unsigned decimals, size_t width) {
  char buffer[28];
  put_field(l, decimal(&buffer, value, decimals), width, 1);
}

static void print_row(const char *step, const char *op, uint32_t runs, uint64_t counts, uint64_t total) {
  line l = {{0}, 0u};
  put_field(&l, step, 4, 1);
  put_field(&l, op, 20, 0);
  put_number(&l, runs, 0u, 6);
  put_number(&l, counts, 0u, 14);
  put_number(&l, runs != 0u ? (counts + runs / 2u) / runs : 0u, 0u, 12);
  put_number(&l, (counts * 1000u + total / 2u) / total, 1u, 6); /* per mille: 12.3 (%) */
  log_line(&l);
}

void op_profiler_report(const char *unit) {
  uint64_t total = unlisted_counts;
  uint32_t runs = 0u;
  size_t i;
  line header = {{0}, 0u};
  for (i = 0; i < OP_PROFILER_MAX_STEPS; ++i) {
    total += records[i].counts;
    if (records[i].runs > runs) runs = records[i].runs;
  }
  if (runs == 0u || total == 0u) {
    microaot_platform_log("op_profiler: nothing measured (model built without MICROAOT_PROFILE, or a counter "
                          "that does not count)");
    return;
  }
  put_field(&header, "step", 4, 1);
  put_field(&header, "operator", 20, 0);
  put_field(&header, "runs", 6, 1);
  put_field(&header, unit, 14, 1);
  put_field(&header, "per run", 12, 1);
  put_field(&header, "share%", 6, 1);
  log_line(&header);
  for (i = 0; i < OP_PROFILER_MAX_STEPS; ++i) {
    char step[28];
    if (records[i].runs == 0u) continue;
    print_row(decimal(&step, i, 0u), records[i].op_name, records[i].runs, records[i].counts, total);
  }
  if (unlisted_counts != 0u) print_row("", "(later-steps)", runs, unlisted_counts, total);
  print_row("", "total", runs, total, total);
}
