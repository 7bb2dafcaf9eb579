/* REMAP for every element type: an odometer over the output's outer coordinates, the input offset kept as
 * running sums per dimension, and the innermost two dimensions as a plane of rows. A row is one memcpy where
 * its offsets are one contiguous run of at least 16 bytes (a PAD's or SLICE's rows). A plane of at least four
 * rows a fixed step apart in the input, no fill in it (a TRANSPOSE's: NCHW to NHWC has rows of C elements, W
 * rows a plane), goes column by column: each element of the row down the rows at that step, no table read. Else
 * one table read and one copy an element. Copies are typed for elements of 1, 2 and 4 bytes (a memcpy of a
 * run-time size is a call per element). */
#include <stddef.h>
#include <string.h>

#include "microaot/kernels/remap.h"

/* The offset of the outer coordinates plus one more dimension's entry; -1 (fill) absorbs. */
static int32_t add_offset(int32_t outer, int32_t entry) { return (outer < 0 || entry < 0) ? -1 : outer + entry; }

/* Whether a row's offsets are first, first + bytes, ... with no fill: the row is one block of the input. */
static int remap_is_run(const int32_t* entries, int32_t count, size_t bytes) {
  int32_t i;
  if (entries[0] < 0) return 0;
  for (i = 1; i < count; ++i) {
    if (entries[i] != entries[0] + (int32_t)((size_t)i * bytes)) return 0;
  }
  return 1;
}

/* Whether no entry is fill. */
static int remap_no_fill(const int32_t* entries, int32_t count) {
  int32_t i;
  for (i = 0; i < count; ++i) {
    if (entries[i] < 0) return 0;
  }
  return 1;
}

/* The step between the rows' entries when they are first, first + step, ... with no fill; 0 otherwise. */
static int32_t remap_row_step(const int32_t* entries, int32_t count) {
  const int32_t step = count >= 2 ? entries[1] - entries[0] : 0;
  int32_t i;
  if (entries[0] < 0 || entries[count - 1] < 0 || step == 0) return 0;
  for (i = 2; i < count; ++i) {
    if (entries[i] != entries[i - 1] + step) return 0;
  }
  return step;
}

/* The geometry of the plane: its rows' offsets (one entry per row) and each row's (one per element). */
typedef struct {
  const int32_t* row_entries;
  int32_t rows;
  const int32_t* entries;
  int32_t count;
  int run;          /* the rows are contiguous runs (remap_is_run) worth a memcpy */
  int32_t columns;  /* the rows' step when the plane goes column by column, else 0 */
  int32_t first;    /* by columns: the first row's offset in the plane */
} remap_plane;

/* out[j * out_step] = in[j * in_step] for j < rows, four a pass (addresses of elements only: the step may be
 * negative, and a pointer moved past the last row would leave the input). */
static inline void remap_column(const uint8_t* in, ptrdiff_t in_step, uint8_t* out, size_t out_step, int32_t rows,
                                size_t bytes) {
  int32_t j = 0;
  for (; j + 4 <= rows; j += 4) {
    const uint8_t* const at = in + (ptrdiff_t)j * in_step;
    uint8_t* const to = out + (size_t)j * out_step;
    memcpy(to, at, bytes);
    memcpy(to + out_step, at + in_step, bytes);
    memcpy(to + 2 * out_step, at + 2 * in_step, bytes);
    memcpy(to + 3 * out_step, at + 3 * in_step, bytes);
  }
  for (; j < rows; ++j) memcpy(out + (size_t)j * out_step, in + (ptrdiff_t)j * in_step, bytes);
}

/* The plane at `base` (-1: all fill), for a constant `bytes` once inlined; returns the output's next byte. */
static inline uint8_t* remap_plane_copy(const remap_plane* g, const uint8_t* in, int32_t base, const uint8_t* fill,
                                        size_t bytes, uint8_t* out) {
  int32_t j, i;
  for (j = 0; j < g->rows; ++j) {
    const int32_t row = add_offset(base, g->row_entries[j]);
    if (row < 0) {
      for (i = 0; i < g->count; ++i, out += bytes) memcpy(out, fill, bytes);
    } else if (g->run) {
      memcpy(out, in + row + g->entries[0], (size_t)g->count * bytes);
      out += (size_t)g->count * bytes;
    } else {
      const uint8_t* const at = in + row;
      for (i = 0; i < g->count; ++i, out += bytes) memcpy(out, g->entries[i] < 0 ? fill : at + g->entries[i], bytes);
    }
  }
  return out;
}

/* The plane at `base` column by column (g->columns), for a constant `bytes` once inlined. Its rows may be more than
 * the row table's (an outer dimension joined them): a fill plane is written without reading them. */
static inline uint8_t* remap_columns_copy(const remap_plane* g, const uint8_t* in, int32_t base, const uint8_t* fill,
                                          size_t bytes, uint8_t* out) {
  const size_t out_step = (size_t)g->count * bytes;
  int32_t i;
  if (base < 0) {
    for (i = 0; i < g->rows * g->count; ++i, out += bytes) memcpy(out, fill, bytes);
    return out;
  }
  for (i = 0; i < g->count; ++i) {
    remap_column(in + base + g->first + g->entries[i], g->columns, out + (size_t)i * bytes, out_step, g->rows, bytes);
  }
  return out + (size_t)g->rows * out_step;
}

static uint8_t* remap_plane_at(const microaot_remap_params* p, const remap_plane* g, const uint8_t* in,
                               int32_t base, uint8_t* out) {
  const uint8_t* const fill = (const uint8_t*)p->fill;
  if (g->columns != 0) { /* elements of 1, 2 or 4 bytes */
    if (p->element_bytes == 1) return remap_columns_copy(g, in, base, fill, 1, out);
    return p->element_bytes == 2 ? remap_columns_copy(g, in, base, fill, 2, out)
                                 : remap_columns_copy(g, in, base, fill, 4, out);
  }
  switch (p->element_bytes) {
    case 1: return remap_plane_copy(g, in, base, fill, 1, out);
    case 2: return remap_plane_copy(g, in, base, fill, 2, out);
    case 4: return remap_plane_copy(g, in, base, fill, 4, out);
    default: return remap_plane_copy(g, in, base, fill, (size_t)p->element_bytes, out);
  }
}

void microaot_remap(const microaot_remap_params* params, const void* input, void* output) {
  static const int32_t one_row = 0; /* a rank-1 remap is a plane of one row */
  const int32_t rank = params->rank;
  int32_t outer = rank >= 2 ? rank - 2 : 0; /* the dimensions the odometer walks */
  const size_t bytes = (size_t)params->element_bytes;
  const uint8_t* in = (const uint8_t*)input;
  uint8_t* out = (uint8_t*)output;
  const int32_t* table[MICROAOT_REMAP_MAX_RANK];
  int32_t index[MICROAOT_REMAP_MAX_RANK];
  int32_t partial[MICROAOT_REMAP_MAX_RANK + 1]; /* partial[d]: offset of coordinates 0..d-1 */
  const int32_t* next = params->offsets;
  remap_plane g;
  int32_t d;
  for (d = 0; d < rank; ++d) {
    if (params->out_dims[d] == 0) return; /* an empty output */
    table[d] = next;
    next += params->out_dims[d];
  }
  g.row_entries = rank >= 2 ? table[rank - 2] : &one_row;
  g.rows = rank >= 2 ? params->out_dims[rank - 2] : 1;
  g.entries = table[rank - 1];
  g.count = params->out_dims[rank - 1];
  /* a call of memcpy costs about as much as a dozen bytes copied one by one */
  g.run = (size_t)g.count * bytes >= 16 && remap_is_run(g.entries, g.count, bytes);
  g.columns = (bytes == 1 || bytes == 2 || bytes == 4) && !g.run && g.rows >= 4 && remap_no_fill(g.entries, g.count)
                  ? remap_row_step(g.row_entries, g.rows)
                  : 0;
  g.first = g.row_entries[0];
  /* An outer dimension that continues the rows' step joins them, for longer columns (an NCHW image's H and W). */
  while (g.columns != 0 && outer > 0 &&
         remap_row_step(table[outer - 1], params->out_dims[outer - 1]) == (int64_t)g.rows * g.columns) {
    g.first += table[outer - 1][0];
    g.rows *= params->out_dims[outer - 1];
    --outer;
  }
  partial[0] = 0;
  for (d = 0; d < outer; ++d) {
    index[d] = 0;
    partial[d + 1] = add_offset(partial[d], table[d][0]);
  }
  for (;;) {
    out = remap_plane_at(params, &g, in, partial[outer], out);
    d = outer - 1;
    while (d >= 0 && ++index[d] == params->out_dims[d]) index[d--] = 0;
    if (d < 0) return;
    for (; d < outer; ++d) partial[d + 1] = add_offset(partial[d], table[d][index[d]]);
  }
}
