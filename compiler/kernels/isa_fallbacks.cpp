#include "kernels/isa_fallbacks.h"

#include <vector>

#include "kernels/kernel_registry.h"
#include "kernels/params_struct.h"
#include "kernels/select_kernels.h"
#include "microaot/fit/dsp_s16.h"

namespace microaot {
namespace {

std::string conv_2d_s16_dsp(const ParamValues& values) {
  const microaot_conv_2d_params_q p = MICROAOT_PARAMS_STRUCT(conv_2d_params_q, values);
  return microaot_fit_conv_2d_s16_dsp(&p) ? "" : "the DSP 16x8 kernel's portable loop: grouped filter";
}

std::string depthwise_conv_2d_s16_dsp(const ParamValues& values) {
  microaot_depthwise_conv_2d_params_q p = MICROAOT_PARAMS_STRUCT(depthwise_conv_2d_params_q, values);
  const ParamValue* shifts = values.find("output_shift");
  std::vector<int32_t> shift;
  if (shifts != nullptr) shift.assign(shifts->integers.begin(), shifts->integers.end());
  if (static_cast<int32_t>(shift.size()) == p.output_depth) p.output_shift = shift.data();
  if (microaot_fit_depthwise_conv_2d_s16_dsp(&p)) return "";
  const std::string portable = "the DSP 16x8 kernel's portable loop: ";
  if (p.filter_height * p.filter_width > MICROAOT_DEPTHWISE_S16_DSP_TAPS_MAX) {
    return portable + "a filter of " + std::to_string(p.filter_height * p.filter_width) + " taps, over its " +
           std::to_string(MICROAOT_DEPTHWISE_S16_DSP_TAPS_MAX);
  }
  for (const int32_t s : shift) {
    if (!microaot_fit_depthwise_s16_dsp_shift(s)) {
      return portable + "an output shift of " + std::to_string(s) + ", outside [" +
             std::to_string(MICROAOT_DEPTHWISE_S16_DSP_SHIFT_MIN) + ", " +
             std::to_string(MICROAOT_DEPTHWISE_S16_DSP_SHIFT_MAX) + "]";
    }
  }
  return portable + "a clamp outside int16";
}

// The implementations that fall back, with the words for a layer: their stem and source.
struct Fallback {
  const char *stem, *source;
  std::string (*why)(const ParamValues&);
};
const Fallback kFallbacks[] = {
    {"conv_2d_s16", "kernels/dsp/conv_2d_s16.c", conv_2d_s16_dsp},
    {"depthwise_conv_2d_s16", "kernels/dsp/depthwise_conv_2d_s16.c", depthwise_conv_2d_s16_dsp},
};

}  // namespace

std::string isa_fallback(const KernelCall& call, const Target& target) {
  const KernelRegistry& registry = kernel_registry();
  for (const Fallback& f : kFallbacks) {
    if (call.custom || call.stem != f.stem) continue;
    const KernelInfo* kernel = registry.find(call.stem, KernelVariant::kPlain);
    if (kernel == nullptr || select_implementation(registry, *kernel, target) != f.source) return "";
    return f.why(call.params);
  }
  return "";
}

}  // namespace microaot
