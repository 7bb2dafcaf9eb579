/* BATCH_MATMUL float: one dot product per output element, as TFLite Micro's reference computes it. */
#define MICROAOT_DTYPE f32
#define MICROAOT_FN microaot_batch_matmul_f32
#include "microaot/internal/templates/batch_matmul.h"
