/* The graph executor: an interpreter over the same kernels and the same executor core as AOT. The model is
 * a blob (compile --executor graph): kernel ids from kernel_list.def, each step's serialized parameters,
 * tensor descriptors, the memory plan and the constants. The firmware offers a table of the kernels it links
 * (generated: kernel_table.c); init validates a blob against it before anything runs, so a blob can be
 * replaced in the field without reflashing. The blob layout is defined here once, for the compiler that
 * writes it and the loader that reads it. */
#ifndef MICROAOT_GRAPH_H
#define MICROAOT_GRAPH_H

#include <stddef.h>
#include <stdint.h>

#include "microaot/executor.h"

#ifdef __cplusplus
extern "C" {
#endif

/* ---- The blob: little-endian 32-bit words, sections 16-byte aligned, starting 16-byte aligned. ---- */
#define MICROAOT_BLOB_MAGIC 0x424F414Du /* "MAOB" */
#define MICROAOT_BLOB_VERSION 3u /* 3: the depthwise ring kernels take the requantization (docs/executors.md) */
#define MICROAOT_BLOB_ALIGN 16u
#define MICROAOT_BLOB_NONE 0xFFFFFFFFu /* an absent optional tensor, or no scratch */

/* Header words, in order. *_AT are byte offsets from the blob's start; the checksum covers every byte after
 * the header's first four words (microaot_blob_checksum). */
enum {
  MICROAOT_BLOB_W_MAGIC,
  MICROAOT_BLOB_W_VERSION,
  MICROAOT_BLOB_W_BYTES,        /* the whole blob */
  MICROAOT_BLOB_W_CHECKSUM,
  MICROAOT_BLOB_W_ARENA_BYTES,  /* the planned bytes after the arena header: activations, then the state */
  MICROAOT_BLOB_W_ARENA_HEADER, /* bytes before them that record the arena's last writer */
  MICROAOT_BLOB_W_ARENA_ALIGN,
  MICROAOT_BLOB_W_NUM_INPUTS,
  MICROAOT_BLOB_W_NUM_OUTPUTS,
  MICROAOT_BLOB_W_NUM_STEPS,
  MICROAOT_BLOB_W_NUM_TENSORS,
  MICROAOT_BLOB_W_NUM_ARGS,
  MICROAOT_BLOB_W_IO_AT,        /* microaot_io_desc per input, then per output (pool 0: the arena) */
  MICROAOT_BLOB_W_TENSORS_AT,   /* MICROAOT_BLOB_TENSOR_WORDS per tensor */
  MICROAOT_BLOB_W_STEPS_AT,     /* MICROAOT_BLOB_STEP_WORDS per step */
  MICROAOT_BLOB_W_ARGS_AT,      /* one tensor index (or NONE) per kernel argument, steps in order */
  MICROAOT_BLOB_W_PARAMS_AT,    /* the steps' parameter records */
  MICROAOT_BLOB_W_PARAMS_BYTES,
  MICROAOT_BLOB_W_CONSTANTS_AT, /* the constant tensors */
  MICROAOT_BLOB_W_CONSTANTS_BYTES,
  MICROAOT_BLOB_W_STATE_AT,      /* the state kept from run to run (resource variables): its arena offset, */
  MICROAOT_BLOB_W_STATE_BYTES,   /* its bytes (0: none), */
  MICROAOT_BLOB_W_STATE_INIT_AT, /* and where its initial value is among the constants (NONE: zeros) */
  MICROAOT_BLOB_HEADER_WORDS
};

/* A tensor: where it lives, its byte offset there, its bytes and its element type (MICROAOT_DTYPE_*). */
enum { MICROAOT_BLOB_T_PLACE, MICROAOT_BLOB_T_OFFSET, MICROAOT_BLOB_T_BYTES, MICROAOT_BLOB_T_DTYPE,
       MICROAOT_BLOB_TENSOR_WORDS };
enum { MICROAOT_PLACE_ARENA = 0, MICROAOT_PLACE_CONSTANT = 1 };

/* A step: its kernel's id, its parameter record (offset within the params section, bytes), its arguments
 * (first index into the args section, count) and its scratch (arena offset and bytes, or NONE and 0). */
enum { MICROAOT_BLOB_S_KERNEL, MICROAOT_BLOB_S_PARAMS_AT, MICROAOT_BLOB_S_PARAMS_BYTES, MICROAOT_BLOB_S_FIRST_ARG,
       MICROAOT_BLOB_S_NUM_ARGS, MICROAOT_BLOB_S_SCRATCH_AT, MICROAOT_BLOB_S_SCRATCH_BYTES, MICROAOT_BLOB_S_RESERVED,
       MICROAOT_BLOB_STEP_WORDS };

/* Element types of tensors and kernel signatures (kernel_list.def's s8, s16, ...). */
enum { MICROAOT_DTYPE_ANY = 0, MICROAOT_DTYPE_S8, MICROAOT_DTYPE_S16, MICROAOT_DTYPE_S32, MICROAOT_DTYPE_S64,
       MICROAOT_DTYPE_U8, MICROAOT_DTYPE_BOOL, MICROAOT_DTYPE_F32, MICROAOT_DTYPE_COUNT };

/* A parameter record is params.h's serialization: the struct's fields in order, I32 and F32 as one word, an
 * array as a word holding its element count, the elements, and zero padding to a whole word. */
enum { MICROAOT_PARAM_I32, MICROAOT_PARAM_F32, MICROAOT_PARAM_I8_ARRAY, MICROAOT_PARAM_I16_ARRAY,
       MICROAOT_PARAM_I32_ARRAY, MICROAOT_PARAM_F32_ARRAY };

/* The blob's checksum over `size` bytes (a multiple of 4): Adler-32's two sums over 16-bit halves, cheap
 * enough for init to run over the weights (about two instructions a byte) and sure to catch any one changed
 * byte; it also catches swapped or lost words and a truncated copy. Corruption detection, not authentication. */
uint32_t microaot_blob_checksum(const uint8_t *bytes, size_t size);

/* ---- What the firmware offers a blob (generated kernel_table.c). ---- */

/* One field of a params struct: its kind (MICROAOT_PARAM_*) and offset in the C struct. */
typedef struct {
  uint8_t kind;
  uint16_t offset;
} microaot_param_field;

/* One entry of a decoding table, from a params struct's field list: with MICROAOT_GRAPH_STRUCT defined as the
 * struct's type, `{MICROAOT_FIELDS_<name>(MICROAOT_GRAPH_FIELD)}` lists its fields in order. */
#define MICROAOT_GRAPH_FIELD(kind, field) {MICROAOT_PARAM_##kind, (uint16_t)offsetof(MICROAOT_GRAPH_STRUCT, field)},

/* One argument of a kernel's signature: role and element type (MICROAOT_DTYPE_*, ANY for byte-generic). */
enum { MICROAOT_ARG_IN, MICROAOT_ARG_OPTIONAL_IN, MICROAOT_ARG_OUT, MICROAOT_ARG_IN_LIST, MICROAOT_ARG_OUT_LIST };
typedef struct {
  uint8_t role;
  uint8_t dtype;
} microaot_arg_spec;

/* Calls the kernel with its params struct decoded from `params` and `args` (one pointer per argument, a list
 * spread over its items, `num_args` in all); returns the kernel's status (OK for kernels that return none). */
typedef microaot_status (*microaot_kernel_entry)(const uint8_t *params, void *const *args, uint32_t num_args,
                                                 void *scratch);

/* A linked kernel. */
typedef struct {
  uint16_t id;          /* kernel_list.def */
  uint8_t num_args;     /* signature entries (a list counts once) */
  uint8_t takes_scratch;
  const microaot_arg_spec *args;
  const microaot_param_field *fields;
  uint16_t num_fields;
  uint16_t params_size; /* sizeof the params struct */
  microaot_kernel_entry run;
} microaot_graph_kernel;

/* The firmware's side, constant: its kernels (sorted by id) and what its contexts can hold. */
typedef struct {
  const microaot_graph_kernel *kernels;
  uint32_t num_kernels;
  uint32_t max_inputs;   /* slots of the generated context */
  uint8_t *static_arena; /* init with a NULL arena uses it when it is large enough; NULL when compiled out */
  uint32_t static_arena_size;
} microaot_graph_firmware;

/* Most arguments one step may take (the list of a CONCATENATION included); a blob with more is refused. */
#ifndef MICROAOT_GRAPH_MAX_ARGS
#define MICROAOT_GRAPH_MAX_ARGS 64
#endif

/* A context's interpreter state: the model descriptor the core runs, filled from the blob by init. */
typedef struct {
  microaot_model model;
  const uint8_t *blob;
  const microaot_graph_firmware *firmware;
  uint32_t missing_kernel; /* after init returned MISSING_KERNEL: the id (kernel_list.def) of the first step's
                              kernel this firmware lacks; MICROAOT_BLOB_NONE after any other init */
} microaot_graph;

/* Validates `blob` against `firmware`, then binds the arena as microaot_init does (a NULL arena: the static
 * one). BAD_MODEL: not a blob, or a corrupt one (magic, checksum, sizes, offsets, a tensor outside the arena
 * or the constants, a parameter record of the wrong size, arguments that do not fit the kernel's signature).
 * UNSUPPORTED_MODEL: a valid blob this firmware cannot run (another blob version, more inputs than its
 * contexts hold). MISSING_KERNEL: a valid blob with a step whose kernel this firmware does not link (the first
 * one's id in graph->missing_kernel). ARENA_MISALIGNED also for a blob not 16-byte aligned. On failure the
 * context is IDLE. */
microaot_status microaot_graph_init(microaot_context *ctx, microaot_graph *graph, microaot_slot *slots,
                                    const microaot_graph_firmware *firmware, const void *blob, size_t blob_size,
                                    void *arena, size_t arena_size);

/* Parses a valid parameter record into a params struct (generated kernel entries call it). */
void microaot_graph_decode_params(void *params, const microaot_param_field *fields, uint32_t num_fields,
                                  const uint8_t *record);

#ifdef __cplusplus
}
#endif

#endif /* MICROAOT_GRAPH_H */
