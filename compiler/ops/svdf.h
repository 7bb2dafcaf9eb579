// The options of SVDF as its handler reads them (ops/svdf.cpp); the quantizer's writer writes them back.
#pragma once

#include "ir/graph.h"

namespace microaot {

struct SvdfOptions {
  int rank = 1;
  Activation activation = Activation::kNone;  // float32 only: TFLM's integer SVDF applies none
};

}  // namespace microaot
