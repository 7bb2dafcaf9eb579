// What the generated code will run on: `--target "c -mcpu=cortex-m4"` (tvmc's spelling) as the facts the
// compiler acts on: the architecture and which instruction-set extensions the kernels may use.
#pragma once

#include <string>

namespace microaot {

struct Target {
  std::string cpu;      // "cortex-m4", or empty for generic C (the host, or any other C99 compiler)
  std::string arch;     // "armv7e-m", "armv8.1-m.main", ...; empty for generic C
  bool dsp = false;     // the DSP extension: SMLAD, SXTB16, SSAT, ... (Armv7E-M, Armv8-M Mainline)
  bool mve = false;     // Helium, the M-profile vector extension (Armv8.1-M)
  std::string fpu;      // "none", "fpv4-sp-d16", "fpv5-sp-d16", "fpv5-d16"
  bool fast_kernels_requested = false;  // "cmsis-nn, c": tvmc's way to ask for the fastest kernels
  // --optimize size: every layer keeps the portable kernel (no ISA implementation, no packed weights) and
  // the C is built with -Os, for flash-bound parts. The default, speed, takes what the extensions offer.
  bool optimize_size = false;
  // --optimize balanced: as speed, but the packed kernels keep int8 weights in flash (half their int16 form's
  // bytes, a third more instructions in their inner loops).
  bool optimize_balanced = false;
  // --compress-weights: the most bits per index a palettised layer's weights may take (compiler/ops/
  // palette_weights.h; runtime microaot/internal/palette.h), 0 = off. Default: default_compress_bits.
  int compress_bits = 0;
  // --compress-weights off given: also the weights of a TFLM-compressed model (Tensor::lut_bits) stay plain,
  // which otherwise keep a palette whatever compress_bits says.
  bool compress_off_asked = false;
  // Palettes only where a DSP palette kernel takes the layer and its decode pays (compiler/ops/palette_weights.h):
  // the default at balanced on a DSP target; an explicit --compress-weights palettises every layer it fits.
  bool compress_fast_only = false;

  // Whether the kernels may use an extension: the target has it and the setting is speed.
  bool kernels_use_dsp() const { return dsp && !optimize_size; }
  bool kernels_use_mve() const { return mve && !optimize_size; }
  // Whether the packed kernels take their weights widened to int16 at compile time (the setting is speed).
  bool packed_int16_weights() const { return kernels_use_dsp() && !optimize_balanced; }

  bool is_generic() const { return cpu.empty(); }
  // "cortex-m4 (armv7e-m, dsp, fpv4-sp-d16)" or "generic C".
  std::string describe() const;
};

// The palettes --compress-weights lossless takes: up to 128 values per channel, where they pay.
constexpr int kLosslessPaletteBits = 7;
// --compress-weights' default: kLosslessPaletteBits at size and balanced (on a DSP target only where the DSP
// palette kernel pays: default_compress_fast_only); else off.
int default_compress_bits(const Target& target);
bool default_compress_fast_only(const Target& target);
// --compress-weights as typed: "off", "lossless" or the bits.
std::string compress_weights_name(int bits);

// "size", "balanced" or "speed", as --optimize spells it.
const char* optimize_name(const Target& target);
// The C compiler's optimisation flag of the setting: "-Os" (size) or "-O2".
const char* optimize_c_flag(const Target& target);

// Parses "c", "host", "c -mcpu=cortex-m4", "cortex-m4", "cmsis-nn, c -mcpu=cortex-m55", -mcpu feature
// modifiers ("cortex-m33+nodsp", "+nofp", "+nomve") and tvmc's -mattr ("-mattr=+nodsp", "-mattr=-dsp,-mve").
// Throws CompileError on an unknown cpu, modifier, -mattr entry or target option, naming what is known.
Target parse_target(const std::string& text);

// The known cpus, for messages and help: "cortex-m0, cortex-m0plus, ...".
std::string known_cpus();

}  // namespace microaot
