#include "kernels/tabulate.h"

#include <cstdint>
#include <string>
#include <vector>

#include "kernels/params_struct.h"
#include "microaot/kernels/activations.h"
#include "microaot/kernels/math.h"
#include "microaot/kernels/quantize.h"
#include "microaot/kernels/sigmoid.h"
#include "microaot/kernels/softmax.h"

namespace microaot {
namespace {

// A kernel of the list run over `size` = 256 elements: in -> out.
using TableRun = void (*)(const ParamValues& values, const int8_t* in, int8_t* out);

struct Tabulated {
  const char* stem;
  TableRun run;
};

#define MICROAOT_TABULATED(stem, params)                                          \
  Tabulated {                                                                     \
    #stem, [](const ParamValues& values, const int8_t* in, int8_t* out) {         \
      microaot_##params p = MICROAOT_PARAMS_STRUCT(params, values);               \
      p.size = 256;                                                               \
      microaot_##stem(&p, in, out);                                               \
    }                                                                             \
  }

// Scalar params and integer arithmetic only: a kernel whose element reads an array or a float (the host's libm
// may round otherwise than the target's) stays off this list.
const Tabulated kTabulated[] = {
    MICROAOT_TABULATED(logistic_s8, sigmoid_params_s8),    MICROAOT_TABULATED(tanh_s8, sigmoid_params_s8),
    MICROAOT_TABULATED(hard_swish_s8, hard_swish_params_s8), MICROAOT_TABULATED(leaky_relu_s8, leaky_relu_params_q),
    MICROAOT_TABULATED(requantize_s8_s8, requantize_params), MICROAOT_TABULATED(relu_s8, unary_params_q),
    MICROAOT_TABULATED(relu6_s8, clamp_params_q),           MICROAOT_TABULATED(abs_s8, unary_params_q),
    MICROAOT_TABULATED(rsqrt_s8, unary_params_q),
};

const Tabulated* find_tabulated(const std::string& stem) {
  for (const Tabulated& entry : kTabulated) {
    if (stem == entry.stem) return &entry;
  }
  return nullptr;
}

// The smallest int8 SOFTMAX whose exps take a table: 1 KB of flash saves two fixed-point exps (about 150
// instructions each on a Cortex-M4) per element, so from 64 elements on it saves over 18,000 instructions.
constexpr int64_t kSoftmaxTableElements = 64;

// softmax_s8 with its exps as softmax_s8_table's table, or `call` unchanged for a small layer.
KernelCall softmax_table(const KernelCall& call) {
  const microaot_softmax_params_s8 p = MICROAOT_PARAMS_STRUCT(softmax_params_s8, call.params);
  if (int64_t{p.outer_size} * p.depth < kSoftmaxTableElements) return call;
  std::vector<int64_t> exps;
  for (int32_t k = 0; k < 256; ++k) exps.push_back(microaot_softmax_s8_exp(&p, -k));
  KernelCall table = call;
  table.stem = "softmax_s8_table";
  table.params.set_ints("exps", exps);
  table.specialisation = "softmax_s8 with the exps of the 256 differences computed at compile time";
  return table;
}

// prelu_s8 with its identity side (inputs at or above the zero point) read from a table the kernel's own element
// computed; the alpha side keeps its arithmetic, since it depends on the alpha too.
KernelCall prelu_table(const KernelCall& call) {
  const microaot_prelu_params_q p = MICROAOT_PARAMS_STRUCT(prelu_params_q, call.params);
  std::vector<int64_t> outputs;
  for (int32_t x = -128; x < 128; ++x) {
    outputs.push_back(x + p.input_offset >= 0 ? microaot_prelu_element(&p, x, 0) : 0);
  }
  KernelCall table = call;
  table.stem = "prelu_s8_table";
  table.params.set_ints("table", outputs);
  table.specialisation = "prelu_s8 with the outputs of the inputs at or above the zero point computed at compile time";
  return table;
}

}  // namespace

KernelCall tabulated(const KernelCall& call, const Target& target) {
  if (target.optimize_size || call.custom) return call;
  if (call.stem == "softmax_s8") return softmax_table(call);
  if (call.stem == "prelu_s8") return prelu_table(call);
  const Tabulated* entry = find_tabulated(call.stem);
  if (entry == nullptr) return call;
  std::vector<int8_t> in(256), out(256);
  for (int v = 0; v < 256; ++v) in[static_cast<size_t>(v)] = static_cast<int8_t>(v - 128);
  entry->run(call.params, in.data(), out.data());
  KernelCall table;
  table.stem = "lut_s8";
  table.args = call.args;
  table.params.set_int("size", call.params.find("size")->integer);
  table.params.set_ints("table", std::vector<int64_t>(out.begin(), out.end()));
  table.specialisation = call.stem + " as a 256-entry table, which that kernel computed at compile time";
  return table;
}

}  // namespace microaot
