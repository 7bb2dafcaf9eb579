#include "ops/mve_weights.h"

#include <vector>

#include "microaot/fit/mve_matmul.h"
#include "ops/packed_weights.h"

namespace microaot {

std::string mve_blocking(int64_t pixels, bool conv) {
  if (!conv || pixels == 1) return "1 row x 4 units per step";
  return "2 pixels x 2 channels per step";
}

void use_mve_folded_bias(const Graph& graph, KernelCall& call, const std::string& mve_stem, int32_t units,
                         int32_t depth, bool fits, const std::string& blocking) {
  const std::vector<int64_t>& shifts = call.params.find("output_shift")->integers;
  const std::vector<int32_t> shift(shifts.begin(), shifts.end());
  if (!fits || !microaot_fit_mve_shifts(shift.data(), units)) {
    call.specialisation = "the mve implementation of " + call.stem +
                          " (the layer is outside the folded-bias rows: microaot/fit/mve_matmul.h)";
    return;
  }
  const Tensor& weights = graph.tensor(call.args[1]);
  const std::vector<int32_t> bias =
      call.args[2] == kNoTensor ? std::vector<int32_t>{} : constant_values<int32_t>(graph.tensor(call.args[2]));
  const auto input_offset = static_cast<int32_t>(call.params.find("input_offset")->integer);
  const int index = static_cast<int>(call.derived.size());
  const std::vector<int8_t> w = constant_values<int8_t>(weights);
  call.derived.push_back(
      int32_constant(weights.name + "_folded_bias", fold_input_offset(bias, w, units, depth, input_offset)));
  call.args[2] = derived_arg(index);
  call.stem = mve_stem;
  call.specialisation = "helium: " + blocking +
                        ", 16 products per VMLADAVA over the model's weight rows (the 16-lane layout as they are), "
                        "input zero point folded into the bias at compile time (" +
                        std::to_string(call.derived.back().byte_size()) + " B)";
}

}  // namespace microaot
