/* The executor core for models with their I/O in the arena, one pool and no state (most models): the same
 * calls named microaot_arena_*, without the code of the other features (410 bytes less on a Cortex-M4). A
 * firmware may link it beside executor.c (models of both kinds); init refuses any other model. */
#define MICROAOT_EXECUTOR_ARENA_ONLY 1
#include "executor_core.h"
