/* A row-major walk over a few dimensions with per-dimension element strides, for the kernels whose
 * compiler-merged layout is not one flat row (the reductions, the batch dimensions of BATCH_MATMUL): the
 * multi-index steps like an odometer and the offset of any strided view follows from it. */
#ifndef MICROAOT_WALK_H
#define MICROAOT_WALK_H

#include <stddef.h>
#include <stdint.h>

/* The most dimensions a walk may have (the compiler merges neighbours and refuses more). */
#define MICROAOT_WALK_MAX_DIMS 8

/* Advances index[0..dims) to the next position in row-major order over shape; returns 0 once it wraps back
 * to all zeros (the walk is over), 1 otherwise. With dims 0 the walk has one position. */
static inline int microaot_walk_next(int32_t dims, const int32_t* shape, int32_t* index) {
  int32_t d;
  for (d = dims - 1; d >= 0; --d) {
    if (++index[d] < shape[d]) return 1;
    index[d] = 0;
  }
  return 0;
}

/* The element offset of index[0..dims) under strides. */
static inline ptrdiff_t microaot_walk_offset(int32_t dims, const int32_t* index, const int32_t* strides) {
  ptrdiff_t offset = 0;
  int32_t d;
  for (d = 0; d < dims; ++d) offset += (ptrdiff_t)index[d] * strides[d];
  return offset;
}

#endif /* MICROAOT_WALK_H */
