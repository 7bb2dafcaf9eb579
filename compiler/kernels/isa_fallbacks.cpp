#include "kernels/isa_fallbacks.h"

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

// The implementations that fall back, with the words for a layer: their stem and source.
struct Fallback {
  const char *stem, *source;
  std::string (*why)(const ParamValues&);
};
const Fallback kFallbacks[] = {
    {"conv_2d_s16", "kernels/dsp/conv_2d_s16.c", conv_2d_s16_dsp},
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
