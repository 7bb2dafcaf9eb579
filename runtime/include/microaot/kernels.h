/* Every kernel family header, for code that walks the whole kernel list (kernel_list.def): the compiler's
 * registry and the interpreter's dispatch table. Generated models include only the headers they use. */
#ifndef MICROAOT_KERNELS_H
#define MICROAOT_KERNELS_H

#include "microaot/kernels/activations.h"
#include "microaot/kernels/add.h"
#include "microaot/kernels/add_n.h"
#include "microaot/kernels/batch_matmul.h"
#include "microaot/kernels/cast.h"
#include "microaot/kernels/comparisons.h"
#include "microaot/kernels/concatenation.h"
#include "microaot/kernels/conv.h"
#include "microaot/kernels/cumsum.h"
#include "microaot/kernels/div.h"
#include "microaot/kernels/dynamic_update_slice.h"
#include "microaot/kernels/fully_connected.h"
#include "microaot/kernels/gather.h"
#include "microaot/kernels/l2_normalization.h"
#include "microaot/kernels/log_softmax.h"
#include "microaot/kernels/logical.h"
#include "microaot/kernels/math.h"
#include "microaot/kernels/maximum_minimum.h"
#include "microaot/kernels/mul.h"
#include "microaot/kernels/pooling.h"
#include "microaot/kernels/quantize.h"
#include "microaot/kernels/reduce.h"
#include "microaot/kernels/remap.h"
#include "microaot/kernels/resize.h"
#include "microaot/kernels/select_v2.h"
#include "microaot/kernels/sigmoid.h"
#include "microaot/kernels/softmax.h"
#include "microaot/kernels/split.h"
#include "microaot/kernels/squared_difference.h"
#include "microaot/kernels/svdf.h"
#include "microaot/kernels/transpose_conv.h"

#endif /* MICROAOT_KERNELS_H */
