#include "kernels/isa_fallbacks.h"

#include <vector>

#include "kernels/kernel_registry.h"
#include "kernels/params_struct.h"
#include "kernels/select_kernels.h"
#include "microaot/fit/dsp_s16.h"
#include "microaot/internal/dsp_add_s16.h"

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

// Where the DSP int16 ADD, SUB and MUL (microaot/internal/dsp_add_s16.h, kernels/dsp/mul_s16.c) leave their pairs:
// the reference's code for parameters other than TFLM's int16 ones, element by element for a rescaling without a
// right shift or a row whose inputs do not both step by one (MUL: one of them may be one value).
const char* const kS16NoRightShift = "the DSP int16 kernel element by element: a rescaling without a right shift";

std::string binary_s16_rows(const ParamValues& values, bool scalar_ok) {
  const ParamValue* strides1 = values.find("input1_strides");
  const ParamValue* strides2 = values.find("input2_strides");
  if (strides1 == nullptr || strides2 == nullptr || strides1->integers.empty()) return "";  // flat
  const int64_t s1 = strides1->integers.back(), s2 = strides2->integers.back();
  if ((s1 == 1 && s2 == 1) || (scalar_ok && s1 + s2 == 1)) return "";
  return "the DSP int16 kernel element by element: an input broadcast along the rows or strided";
}

std::string add_sub_s16_dsp(const ParamValues& values, int subtract) {
  const microaot_add_params_q p = MICROAOT_PARAMS_STRUCT(add_params_q, values);
  microaot_add_s16_constants k;
  if (!microaot_add_s16_constants_of(&p, subtract, &k)) return "the reference's code: not TFLM's int16 parameters";
  if (dsp_add_s16_pairs_kind(&k) < 0) return kS16NoRightShift;
  return binary_s16_rows(values, false);
}

std::string add_s16_dsp(const ParamValues& values) { return add_sub_s16_dsp(values, 0); }
std::string sub_s16_dsp(const ParamValues& values) { return add_sub_s16_dsp(values, 1); }

std::string mul_s16_dsp(const ParamValues& values) {
  const microaot_mul_params_q p = MICROAOT_PARAMS_STRUCT(mul_params_q, values);
  microaot_mul_s16_constants k;
  if (!microaot_mul_s16_constants_of(&p, &k)) return "the reference's code: not TFLM's int16 parameters";
  if (k.output.exponent < 1) return kS16NoRightShift;
  return binary_s16_rows(values, true);
}

// The implementations that fall back, with the words for a layer: their stem and source.
struct Fallback {
  const char *stem, *source;
  std::string (*why)(const ParamValues&);
};
const Fallback kFallbacks[] = {
    {"conv_2d_s16", "kernels/dsp/conv_2d_s16.c", conv_2d_s16_dsp},
    {"depthwise_conv_2d_s16", "kernels/dsp/depthwise_conv_2d_s16.c", depthwise_conv_2d_s16_dsp},
    {"add_s16", "kernels/dsp/add_s16.c", add_s16_dsp},
    {"sub_s16", "kernels/dsp/sub_s16.c", sub_s16_dsp},
    {"mul_s16", "kernels/dsp/mul_s16.c", mul_s16_dsp},
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
