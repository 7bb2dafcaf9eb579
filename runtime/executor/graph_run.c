/* The graph executor's step: the blob's step record says which linked kernel to call on which tensors; the
 * kernel's entry decodes its parameter record. Everything was validated by init (graph_load.c), so a step
 * checks nothing again: its cost is a few words read per argument. */
#include <string.h>

#include "graph_blob.h"

/* Adler-32's two sums modulo 65521 over 16-bit halves of words: any changed byte changes the first sum
 * (by less than the modulus, never by a multiple of it), reordered words change the second. Reduced every
 * 128 words, before the second sum could overflow. */
uint32_t microaot_blob_checksum(const uint8_t *bytes, size_t size) {
  enum { MODULUS = 65521u, BLOCK = 4u * 128u };
  uint32_t sum = 1u, sum_of_sums = 0u;
  size_t at = 0;
  while (at + 4u <= size) {
    const size_t end = size - at > BLOCK ? at + BLOCK : size;
    for (; at + 4u <= end; at += 4u) {
      const uint32_t word = blob_word(bytes + at, 0u);
      sum += (word & 0xFFFFu) + (word >> 16);
      sum_of_sums += sum;
    }
    sum %= MODULUS;
    sum_of_sums %= MODULUS;
  }
  return (sum_of_sums << 16) | sum;
}

const microaot_graph_kernel *microaot_graph_find_kernel(const microaot_graph_firmware *firmware, uint32_t id) {
  uint32_t low = 0u, high = firmware->num_kernels;
  while (low < high) {
    const uint32_t mid = low + (high - low) / 2u;
    const uint32_t mid_id = firmware->kernels[mid].id;
    if (mid_id == id) return &firmware->kernels[mid];
    if (mid_id < id) {
      low = mid + 1u;
    } else {
      high = mid;
    }
  }
  return NULL;
}

static size_t element_bytes(uint8_t kind) {
  switch (kind) {
    case MICROAOT_PARAM_I8_ARRAY: return 1u;
    case MICROAOT_PARAM_I16_ARRAY: return 2u;
    default: return 4u;
  }
}

void microaot_graph_decode_params(void *params, const microaot_param_field *fields, uint32_t num_fields,
                                  const uint8_t *record) {
  uint8_t *out = (uint8_t *)params;
  uint32_t i;
  for (i = 0; i < num_fields; ++i) {
    const microaot_param_field *field = &fields[i];
    if (field->kind == MICROAOT_PARAM_I32 || field->kind == MICROAOT_PARAM_F32) {
      memcpy(out + field->offset, record, 4u);
      record += 4u;
    } else {
      const void *elements = record + 4u;
      const size_t bytes = blob_word(record, 0u) * element_bytes(field->kind);
      memcpy(out + field->offset, &elements, sizeof elements);
      record += 4u + (bytes + 3u) / 4u * 4u;
    }
  }
}

/* Where tensor `index` is for this context: in its arena, or among the blob's constants. Kernels take every
 * argument as a pointer without const; they write only their outputs, which init checked are in the arena. */
static void *tensor_address(const microaot_context *ctx, const uint8_t *blob, uint32_t index) {
  const uint8_t *record = tensor_record(blob, index);
  const uint32_t offset = blob_word(record, MICROAOT_BLOB_T_OFFSET);
  if (blob_word(record, MICROAOT_BLOB_T_PLACE) == MICROAOT_PLACE_ARENA) return ctx->arena + offset;
  return (void *)(uintptr_t)(blob + header_word(blob, MICROAOT_BLOB_W_CONSTANTS_AT) + offset);
}

microaot_status microaot_graph_step(const microaot_context *ctx, uint32_t step) {
  const microaot_graph *graph = (const microaot_graph *)ctx->model->program;
  const uint8_t *blob = graph->blob;
  const uint8_t *record = step_record(blob, step);
  const microaot_graph_kernel *kernel =
      microaot_graph_find_kernel(graph->firmware, blob_word(record, MICROAOT_BLOB_S_KERNEL));
  const uint8_t *arg_indices =
      blob + header_word(blob, MICROAOT_BLOB_W_ARGS_AT) + 4u * blob_word(record, MICROAOT_BLOB_S_FIRST_ARG);
  const uint32_t num_args = blob_word(record, MICROAOT_BLOB_S_NUM_ARGS);
  const uint32_t scratch_at = blob_word(record, MICROAOT_BLOB_S_SCRATCH_AT);
  void *args[MICROAOT_GRAPH_MAX_ARGS];
  uint32_t i;
  for (i = 0; i < num_args; ++i) {
    const uint32_t index = blob_word(arg_indices, i);
    args[i] = index == MICROAOT_BLOB_NONE ? NULL : tensor_address(ctx, blob, index);
  }
  return kernel->run(blob + header_word(blob, MICROAOT_BLOB_W_PARAMS_AT) +
                         blob_word(record, MICROAOT_BLOB_S_PARAMS_AT),
                     args, num_args, scratch_at == MICROAOT_BLOB_NONE ? NULL : ctx->arena + scratch_at);
}
