/* Status codes shared by the generated model API and the runtime. */
#ifndef MICROAOT_STATUS_H
#define MICROAOT_STATUS_H

typedef enum {
  MICROAOT_STATUS_OK = 0,
  MICROAOT_STATUS_NULL_POINTER = 1,     /* a required pointer argument was NULL */
  MICROAOT_STATUS_BAD_INDEX = 2,        /* input/output index out of range */
  MICROAOT_STATUS_BAD_SIZE = 3,         /* buffer size differs from the tensor's size */
  MICROAOT_STATUS_BAD_STATE = 4,        /* call not allowed in the context's current state */
  MICROAOT_STATUS_ARENA_TOO_SMALL = 5,  /* caller-provided arena smaller than required */
  MICROAOT_STATUS_ARENA_MISALIGNED = 6  /* caller-provided arena (or bound I/O buffer) not aligned as required */
} microaot_status;

#endif /* MICROAOT_STATUS_H */
