/* What the graph executor's sources share: reading the blob's little-endian words. Not an API. */
#ifndef MICROAOT_GRAPH_BLOB_H
#define MICROAOT_GRAPH_BLOB_H

#include <string.h>

#include "microaot/graph.h"

/* Word `index` of the record at `at`. memcpy: the blob promises 4-byte alignment only to the loader's checks.
 * Big-endian hosts read the magic wrong and refuse the blob. */
static inline uint32_t blob_word(const uint8_t *at, uint32_t index) {
  uint32_t value;
  memcpy(&value, at + 4u * index, sizeof value);
  return value;
}

static inline uint32_t header_word(const uint8_t *blob, uint32_t index) { return blob_word(blob, index); }

static inline const uint8_t *step_record(const uint8_t *blob, uint32_t step) {
  return blob + header_word(blob, MICROAOT_BLOB_W_STEPS_AT) + 4u * MICROAOT_BLOB_STEP_WORDS * step;
}

static inline const uint8_t *tensor_record(const uint8_t *blob, uint32_t tensor) {
  return blob + header_word(blob, MICROAOT_BLOB_W_TENSORS_AT) + 4u * MICROAOT_BLOB_TENSOR_WORDS * tensor;
}

/* The linked kernel with this id, or NULL (the table is sorted by id). */
const microaot_graph_kernel *microaot_graph_find_kernel(const microaot_graph_firmware *firmware, uint32_t id);

/* The step function the core calls for graph models. */
microaot_status microaot_graph_step(const microaot_context *ctx, uint32_t step);

#endif /* MICROAOT_GRAPH_BLOB_H */
