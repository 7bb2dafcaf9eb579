#include "kernels/share_kernels.h"

#include <algorithm>
#include <string>
#include <utility>

#include "support/diagnostics.h"

namespace microaot {

namespace {
// The k x k packed CONV_2D runs a 1x1 layer without padding through the 1x1 kernel's own rows
// (runtime/include/microaot/templates/packed_conv_2d_kxk.h), over the same packed weights, folded bias,
// output step and scratch; the input offset the 1x1 lowering zeroes is unread there. A model with a k x k
// layer thus saves the 1x1 kernel; a model of 1x1 layers only keeps the smaller 1x1 kernel (the k x k
// object is 2.5 times its size).
const char kWhy[] = "; through the k x k kernel, which the model links for its k x k layers (one packed CONV_2D kernel)";

// A packed FULLY_CONNECTED is the same product over `batches` rows of input_depth: the 1x1 CONV_2D over one
// image row of `batches` pixels, which the k x k kernel's 1x1 rows compute as the FULLY_CONNECTED kernel does
// (rows two at a time, the same widening and microaot_packed_rows), over the same constants and scratch.
const char kFullyConnectedWhy[] =
    "; through the k x k CONV_2D kernel as a 1x1 convolution over the batches, which the model links for its "
    "k x k layers (one packed kernel less)";

// The full DSP AVERAGE_POOL_2D computes the lanes' layers through the same lanes (a check per row more,
// runtime/include/microaot/templates/pool_2d_s8_lanes.h): a model that links it for another layer (channels not
// a multiple of 4, a larger window) saves the lanes' kernel.
const char kAveragePoolWhy[] =
    "; through the full kernel, which the model links for its other average pools (one kernel less)";

// The lanes' kernel and the full one compute a global pool (one window over the plane) with the same params and
// overlap scratch: a model that links either for another layer saves the global kernel. The full kernel first,
// so that a model linking both sends its global pools straight there.
const char kGlobalPoolWhy[] =
    "; through the model's other average pool kernel, which computes the plane as one window (one kernel less)";

void fully_connected_as_pixel_conv(ParamValues& params) {
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
}

const std::vector<SharedKernel> kSharedKernels = {
    {"conv_2d_s8_packed", "conv_2d_s8_packed_kxk", nullptr, kWhy},
    {"conv_2d_s8_packed_w16", "conv_2d_s8_packed_kxk_w16", nullptr, kWhy},
    {"fully_connected_s8_packed", "conv_2d_s8_packed_kxk", fully_connected_as_pixel_conv, kFullyConnectedWhy},
    {"fully_connected_s8_packed_w16", "conv_2d_s8_packed_kxk_w16", fully_connected_as_pixel_conv,
     kFullyConnectedWhy},
    {"average_pool_2d_s8_global", "average_pool_2d_s8", nullptr, kGlobalPoolWhy},
    {"average_pool_2d_s8_global", "average_pool_2d_s8_lanes", nullptr, kGlobalPoolWhy},
    {"average_pool_2d_s8_lanes", "average_pool_2d_s8", nullptr, kAveragePoolWhy},
};

bool takes(const std::vector<KernelCall>& calls, const std::string& stem) {
  return std::any_of(calls.begin(), calls.end(),
                     [&](const KernelCall& call) { return !call.custom && call.stem == stem; });
}
}  // namespace

const std::vector<SharedKernel>& shared_kernels() { return kSharedKernels; }

void share_kernels(std::vector<KernelCall>& calls) {
  for (const SharedKernel& shared : kSharedKernels) {
    if (!takes(calls, shared.to)) continue;
    for (KernelCall& call : calls) {
      if (call.custom || call.stem != shared.from) continue;
      call.stem = shared.to;
      if (shared.adapt != nullptr) shared.adapt(call.params);
      call.specialisation += shared.why;
    }
  }
}

}  // namespace microaot
