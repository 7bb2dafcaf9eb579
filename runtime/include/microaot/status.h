/* Status codes shared by the generated model API and the runtime. */
#ifndef MICROAOT_STATUS_H
#define MICROAOT_STATUS_H

#ifdef __cplusplus
extern "C" {
#endif

typedef enum {
  MICROAOT_STATUS_OK = 0,
  MICROAOT_STATUS_NULL_POINTER = 1,     /* a required pointer argument was NULL */
  MICROAOT_STATUS_BAD_INDEX = 2,        /* input/output index out of range */
  MICROAOT_STATUS_BAD_SIZE = 3,         /* buffer size differs from the tensor's size (or a zero step count) */
  MICROAOT_STATUS_BAD_STATE = 4,        /* call not allowed in the context's current state */
  MICROAOT_STATUS_ARENA_TOO_SMALL = 5,  /* caller-provided arena smaller than required */
  MICROAOT_STATUS_ARENA_MISALIGNED = 6, /* caller-provided arena (or bound I/O buffer) not aligned as required */
  MICROAOT_STATUS_INPUT_NOT_SET = 7,    /* run before every input was written (since init, or the last run) */
  MICROAOT_STATUS_ARENA_CLOBBERED = 8,  /* another context wrote the shared memory since this one's last write */
  MICROAOT_STATUS_BUFFER_OVERLAP = 9,   /* a bound buffer overlaps the arena or another bound buffer */
  MICROAOT_STATUS_IN_PROGRESS = 10,     /* run_steps: operators are left; call run_steps again */
  MICROAOT_STATUS_VALUE_OUT_OF_RANGE = 11, /* run: an operator met a value outside its range in its data (a
                                              gather index beyond its axis) or its params (a requantization
                                              outside a kernel's bounds); the outputs are not valid */
  MICROAOT_STATUS_BAD_MODEL = 12,        /* graph executor: the model blob is not one, or is corrupt */
  MICROAOT_STATUS_UNSUPPORTED_MODEL = 13, /* graph executor: a valid blob this firmware cannot run (blob
                                             version, more inputs than its contexts hold) */
  MICROAOT_STATUS_MISSING_KERNEL = 14     /* graph executor: a valid blob that needs a kernel this firmware does
                                             not link; NAME_missing_kernel(ctx) gives its id, `microaot inspect
                                             BLOB` its name (built for another --target or --optimize?) */
} microaot_status;

/* A short constant description of `status` ("ok", "null pointer", ...); "unknown status" for any other value. */
const char *microaot_status_string(microaot_status status);

#ifdef __cplusplus
}
#endif

#endif /* MICROAOT_STATUS_H */
