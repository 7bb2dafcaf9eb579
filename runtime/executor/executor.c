/* The executor core for any model: I/O in the arena or outside it, further pools, state kept from run to run. */
#include "executor_core.h"
