#include "kernels/share_kernels.h"

#include <algorithm>
#include <string>
#include <utility>

#include "kernels/kernel_registry.h"
#include "ops/packed_weights.h"
#include "support/diagnostics.h"

namespace microaot {

namespace {
// A 1x1 layer (or a FULLY_CONNECTED as one) in the k x k packed kernel: its scratch holds the three widened rows
// that kernel runs at a time, where the 1x1 and FULLY_CONNECTED kernels run two.
void pixel_rows(KernelCall& call) {
  const auto integer = [&](const char* field) { return static_cast<int32_t>(call.params.find(field)->integer); };
  call.scratch_bytes = packed_pixel_rows_bytes(integer("input_depth"), integer("output_depth"));
}

// A packed FULLY_CONNECTED's params as the 1x1 CONV_2D over one image row of `batches` pixels (its fold into
// the k x k packed CONV_2D, kernel_list.def), with that kernel's scratch.
void fully_connected_as_pixel_conv(KernelCall& call) {
  ParamValues& params = call.params;
  const auto integer = [&](const char* field) { return params.find(field)->integer; };
  // The packed lowering takes symmetric weights only (packed_refusal): the convolution has no filter offset.
  MICROAOT_CHECK(integer("filter_offset") == 0, "a packed FULLY_CONNECTED with a weight zero point");
  const int64_t rows = integer("batches"), depth = integer("input_depth");
  const std::pair<const char*, int64_t> fields[] = {
      {"batches", 1},
      {"input_height", 1},
      {"input_width", rows},  // one pixel per batch
      {"input_depth", depth},
      {"filter_height", 1},
      {"filter_width", 1},
      {"filter_depth", depth},
      {"output_height", 1},
      {"output_width", rows},
      {"output_depth", integer("output_depth")},
      {"stride_height", 1},
      {"stride_width", 1},
      {"dilation_height", 1},
      {"dilation_width", 1},
      {"pad_height", 0},
      {"pad_width", 0},
      {"input_offset", integer("input_offset")},  // 0: folded into the bias by the packed lowering
      {"output_offset", integer("output_offset")},
      {"activation_min", integer("activation_min")},
      {"activation_max", integer("activation_max")},
  };
  ParamValues conv;
  for (const auto& [field, value] : fields) conv.set_int(field, value);
  for (const char* array : {"output_multiplier", "output_shift"}) conv.set_ints(array, params.find(array)->integers);
  params = conv;
  pixel_rows(call);
}

// The call rewrites the list's folds name (MICROAOT_KERNEL_FOLD's `adapt`).
using Adapt = void (*)(KernelCall&);
Adapt adapt_named(const std::string& name) {
  if (name == "none") return nullptr;
  if (name == "pixel_rows") return pixel_rows;
  if (name == "fully_connected_as_pixel_conv") return fully_connected_as_pixel_conv;
  MICROAOT_CHECK(false, "kernel_list.def: no call rewrite '" + name + "' for a fold");
}

std::vector<SharedKernel> folds_of_the_list() {
  std::vector<SharedKernel> shared;
  for (const KernelFold& fold : kernel_registry().folds) {
    shared.push_back({fold.from, fold.into, adapt_named(fold.adapt), fold.why});
  }
  return shared;
}

bool takes(const std::vector<KernelCall>& calls, const std::string& stem) {
  return std::any_of(calls.begin(), calls.end(),
                     [&](const KernelCall& call) { return !call.custom && call.stem == stem; });
}
}  // namespace

const std::vector<SharedKernel>& shared_kernels() {
  static const std::vector<SharedKernel> shared = folds_of_the_list();
  return shared;
}

void share_kernels(std::vector<KernelCall>& calls) {
  for (const SharedKernel& shared : shared_kernels()) {
    if (!takes(calls, shared.to)) continue;
    for (KernelCall& call : calls) {
      if (call.custom || call.stem != shared.from) continue;
      call.stem = shared.to;
      if (shared.adapt != nullptr) shared.adapt(call);
      call.specialisation += shared.why;
    }
  }
}

}  // namespace microaot
