// The differential harness on the emulated Cortex-M4 (where ISA-specific implementations run): a faithful
// candidate passes, a wrong one is caught; every DSP implementation (MICROAOT_KERNEL_ISA lines) against the
// portable kernel on the Cortex-M4 and M7, one random model each or, for the weighted and pooling stems, two
// models focused on their operator (kFocusedOperators) (CI time), each stem's specialisations (kernel_list.def)
// within its case, the k x k packed CONV_2D as a case of its own, all over int16
// weights on the M4 (--optimize speed) and int8 ones on the M7 (balanced) (the host tests of
// runtime/kernels/dsp_kernels_test.cpp and compiler/ops/packed_weights_test.cpp cover many shapes; these run the
// real instructions).
#include <gtest/gtest.h>

#include <algorithm>
#include <cctype>
#include <cstddef>
#include <iterator>
#include <ostream>
#include <string>
#include <vector>

#include "differential_util.h"
#include "e2e_util.h"

namespace microaot::e2e {
namespace {

TEST(DifferentialHarnessM4, FaithfulPassesAndWrongIsCaught) {
  MICROAOT_REQUIRE_QEMU();
  const std::string dir = make_temp_dir();
  std::string output;
  EXPECT_EQ(run_differential({"--kernel", "add_s8", "--cases", "2", "--target", "cortex-m4", "--kernel-source",
                              "kernels/add_s8.c=" + write_faithful_add_s8(dir)},
                             &output),
            0)
      << output;
  EXPECT_EQ(run_differential({"--kernel", "add_s8", "--cases", "10", "--target", "cortex-m4", "--kernel-source",
                              "kernels/add_s8.c=" + write_wrong_add_s8(dir)},
                             &output),
            1)
      << output;
  remove_dir(dir);
}

// The two cpus of the cases, each under its own setting: the M4 with --optimize speed (the packed kernels over
// int16 weights, their _w16 stems), the M7 with balanced (the same DSP kernels, the packed ones over the raw
// form of int8 weights, their _raw stems; docs/packed-raw-form.md), so that both weight forms run on the
// instructions without more cases (the int8 words' loops run in the SVDF cases, on the M7 too). Besides
// its packed twin each setting alone picks the stems of `only_forms` (the depthwise groups' compact words, _w8, at
// balanced: cases of their own there, never on the other cpu).
struct Cpu {
  const char *target, *optimize, *packed_suffix;
  std::vector<std::string> only_forms;
};
const Cpu kCpus[] = {{"cortex-m4", "speed", "_w16", {"_w16"}}, {"cortex-m7", "balanced", "_raw", {"_raw", "_w8"}}};

bool is_specialisation(const std::string& stem);

// A packed stem, or a specialisation with a weight-form twin (the depthwise ring's _w16), as the cpu's setting
// picks it (its _w16 or _raw twin where the list has one).
std::string flavoured(const std::string& stem, const Cpu& cpu) {
  const std::string twin = stem + cpu.packed_suffix;
  const bool has_forms = stem.find("_packed") != std::string::npos || is_specialisation(stem);
  return has_forms && is_specialisation(twin) ? twin : stem;
}

// Whether `stem` is a weight form that only another cpu's setting picks (a _w16 stem at balanced).
bool other_setting_only(const std::string& stem, const Cpu& cpu) {
  for (const Cpu& other : kCpus) {
    for (const std::string& suffix : other.only_forms) {
      const bool ends =
          stem.size() > suffix.size() && stem.compare(stem.size() - suffix.size(), suffix.size(), suffix) == 0;
      if (&other != &cpu && ends) return true;
    }
  }
  return false;
}

struct DspCase {
  std::string stem;       // in the cpu's form
  std::string base_stem;  // as the list names it
  const Cpu* cpu;
  const char* focus;  // the operator of the case's focused models (focus_of), or nullptr: random models
};

void PrintTo(const DspCase& c, std::ostream* os) { *os << c.stem << " on " << c.cpu->target; }

class DspImplementations : public ::testing::TestWithParam<DspCase> {};

// The specialisations of kernel_list.def (MICROAOT_KERNEL_SPECIALISATION): a stem and its parent.
struct Specialisation {
  const char *stem, *parent, *isa;
};
const Specialisation kSpecialisations[] = {
#define MICROAOT_KERNEL_SPECIALISATION(stem, parent, isa) {#stem, #parent, #isa},
#include "microaot/kernel_list.def"
#undef MICROAOT_KERNEL_SPECIALISATION
};

bool is_specialisation(const std::string& stem) {
  return std::any_of(std::begin(kSpecialisations), std::end(kSpecialisations),
                     [&](const Specialisation& s) { return stem == s.stem; });
}

// The stem `stem` specialises, or "" for a family's generic stem.
std::string parent_of(const std::string& stem) {
  for (const Specialisation& s : kSpecialisations) {
    if (stem == s.stem) return s.parent;
  }
  return "";
}

// Stems lowering picks on a DSP target that random models rarely reach within another stem's case: a case each.
const char* const kSpecialisedStems[] = {"conv_2d_s8_packed_kxk", "unidirectional_sequence_lstm_s8_packed",
                                         "svdf_ring_s8_s8_packed", "svdf_ring_s8_s16_packed", "batch_matmul_s8_dot",
                                          "transpose_conv_s8_packed"};

// The stems lowering picks instead of `stem` for some layers on a DSP target (its specialisations in the list,
// each in the cpu's form; not those with a case of their own in kSpecialisedStems): a model calling any of them
// exercises the stem's case, so that the case still finds models and covers them all.
std::vector<std::string> specialisations_of(const std::string& stem, const Cpu& cpu) {
  std::vector<std::string> stems;
  for (const Specialisation& s : kSpecialisations) {
    const bool own_case = std::find(std::begin(kSpecialisedStems), std::end(kSpecialisedStems),
                                    std::string(s.stem)) != std::end(kSpecialisedStems);
    // the stem itself in another weight form: flavoured()
    const bool weight_form = std::string(s.stem) == stem + "_w16" || std::string(s.stem) == stem + "_raw";
    const bool portable = std::string(s.isa) == "portable";  // picked for the weights' values, not the cpu
    const bool mve = std::string(s.isa) == "mve";            // the M55's (MveImplementations)
    if (stem == s.parent && !own_case && !weight_form && !portable && !mve) stems.push_back(flavoured(s.stem, cpu));
  }
  return stems;
}

// The operators whose focused models (--focus, fuzz::focused_model_from_recipe) their stems' cases draw: one
// layer on an image, windows and depths leaning towards the specialised stems, per-channel weights, sums that
// seldom clamp. Random models' sums mostly clamp, so that a kernel mixing up two channels' constants passed
// them, and none in 400,000 reaches the ring (3x3, stride 1, depth 4k, rows of 3 to 12); the pool's lanes and
// global kernels come late (after thousands of tries). A stem of another operator takes random models.
// The recurrent operators' focused models (fuzz/recurrent_recipe.cpp) are the only ones that reach them.
// BATCH_MATMUL's focused models are its recipe's (an RHS over the input's depth, adj_x and adj_y drawn): random
// models' second operands, of the input's own shape, seldom multiply.
const char* const kFocusedOperators[] = {"CONV_2D",         "FULLY_CONNECTED", "DEPTHWISE_CONV_2D",
                                         "AVERAGE_POOL_2D", "MAX_POOL_2D",     "SVDF",
                                         "UNIDIRECTIONAL_SEQUENCE_LSTM",       "BATCH_MATMUL",
                                         "TRANSPOSE_CONV"};

// The focused operator of `stem`'s family (its generic stem's operator: conv_2d_s8 -> CONV_2D, svdf_ring_s8_s8 ->
// SVDF), or nullptr.
const char* focus_of(std::string stem) {
  const char* const int16_binary[][2] = {{"add_s16", "ADD"}, {"sub_s16", "SUB"}, {"mul_s16", "MUL"}};  // is_16x8
  for (const auto& binary : int16_binary) {
    if (stem == binary[0]) return binary[1];
  }
  for (std::string parent = parent_of(stem); !parent.empty(); parent = parent_of(stem)) stem = parent;
  std::transform(stem.begin(), stem.end(), stem.begin(),
                 [](unsigned char c) { return static_cast<char>(std::toupper(c)); });
  for (const char* focused : kFocusedOperators) {
    if (stem.rfind(std::string(focused) + "_", 0) == 0) return focused;
  }
  return nullptr;
}

// A 16x8 stem (int16 activations, int8 weights: conv_2d_s16, depthwise_conv_2d_s16, fully_connected_s16) or an
// int16 element-wise one (add_s16, sub_s16, mul_s16), whose focused models the harness makes in int16 (--int16).
bool is_16x8(const std::string& stem) {
  const std::string suffix = "_s16";
  const bool family = stem.rfind("conv_2d_", 0) == 0 || stem.rfind("fully_connected_", 0) == 0 ||
                      stem.rfind("depthwise_conv_2d_", 0) == 0 || stem.rfind("add_", 0) == 0 ||
                      stem.rfind("sub_", 0) == 0 || stem.rfind("mul_", 0) == 0;
  return family && stem.size() > suffix.size() && stem.compare(stem.size() - suffix.size(), suffix.size(), suffix) == 0;
}

TEST_P(DspImplementations, MatchThePortableKernel) {
  MICROAOT_REQUIRE_QEMU();
  const DspCase& c = GetParam();
  // A focused case's models are small: two of them, so that more of the stem's paths (padding, tiles) come up.
  std::vector<std::string> args = {"--kernel", c.stem, "--cases", c.focus != nullptr ? "2" : "1", "--max-tries",
                                   "40000", "--target", c.cpu->target, "--optimize", c.cpu->optimize};
  for (const std::string& specialised : specialisations_of(c.base_stem, *c.cpu)) {
    args.insert(args.end(), {"--kernel", specialised});
  }
  if (c.focus != nullptr) args.insert(args.end(), {"--focus", c.focus});
  if (is_16x8(c.stem)) args.emplace_back("--int16");
  std::string output;
  EXPECT_EQ(run_differential(args, &output), 0) << output;
}

// The stems of the list's MICROAOT_KERNEL_ISA(stem, isa, source) lines for `isa`; a source that defines several
// stems (the SVDF's ring and shifting forms) gives its first line's.
std::vector<const char*> isa_stems(const std::string& isa) {
  struct Implementation {
    const char *stem, *isa, *source;
  };
  const Implementation implementations[] = {
#define MICROAOT_KERNEL_ISA(stem, isa, source) {#stem, #isa, source},
#include "microaot/kernel_list.def"
  };
  std::vector<const char*> stems;
  std::vector<std::string> sources;
  for (const Implementation& impl : implementations) {
    if (isa != impl.isa || std::find(sources.begin(), sources.end(), impl.source) != sources.end()) continue;
    sources.push_back(impl.source);
    stems.push_back(impl.stem);
  }
  return stems;
}

// The stems of the MICROAOT_KERNEL_ISA(stem, dsp, ...) lines and the specialised stems, each on both cpus.
std::vector<DspCase> dsp_cases() {
  std::vector<const char*> stems = isa_stems("dsp");
  stems.insert(stems.end(), std::begin(kSpecialisedStems), std::end(kSpecialisedStems));
  std::vector<DspCase> cases;
  for (const char* stem : stems) {
    for (const Cpu& cpu : kCpus) {
      const std::string picked = flavoured(stem, cpu);
      // a stem whose twin has a case of its own there (the ring's _w16 on the M4) is that case
      const bool twin_case = picked != stem && std::find(stems.begin(), stems.end(), picked) != stems.end();
      if (!other_setting_only(stem, cpu) && !twin_case) cases.push_back({picked, stem, &cpu, focus_of(stem)});
    }
  }
  return cases;
}

INSTANTIATE_TEST_SUITE_P(Dsp, DspImplementations, ::testing::ValuesIn(dsp_cases()),
                         [](const ::testing::TestParamInfo<DspCase>& info) {
                           std::string name = info.param.stem + "_" + info.param.cpu->target;
                           for (char& c : name) c = c == '-' ? '_' : c;
                           return name;
                         });

// No cliff: layers well outside the shared models' shapes (the harness's --wide list, fuzz::wide_model_from_recipe:
// windows of 693 to 2,400 elements, 1x1 and k x k, odd depths and channel counts, strides and dilations of 2;
// FULLY_CONNECTED depths of 700 to 4,000, odd units and rows; LSTM and SVDF inputs of 700 and 1,301 a step) take the
// packed kernels, their reductions in chunks (the recurrent kernels' rows in one pass), bit-exact with the portable
// kernel: one case per shape, each counted only when the model calls the packed stem.
// On the Cortex-M4 (--optimize speed: the _w16 forms; the chunked reduction is the same C over either form's
// loops, which the host tests of compiler/ops/packed_weights_test.cpp run in both forms).
struct WideFamily {
  const char *focus, *target, *optimize;
  std::vector<std::string> stems;
};

void PrintTo(const WideFamily& f, std::ostream* os) { *os << f.focus << " on " << f.target; }

class WideLayers : public ::testing::TestWithParam<WideFamily> {};

TEST_P(WideLayers, TakeThePackedKernelsBitExact) {
  MICROAOT_REQUIRE_QEMU();
  const WideFamily& f = GetParam();
  std::vector<std::string> args = {"--focus",  f.focus,  "--wide",     "--max-tries", "200",
                                   "--target", f.target, "--optimize", f.optimize};  // a case per shape
  for (const std::string& stem : f.stems) args.insert(args.end(), {"--kernel", stem});
  std::string output;
  EXPECT_EQ(run_differential(args, &output), 0) << output;
}

INSTANTIATE_TEST_SUITE_P(
    Wide, WideLayers,
    ::testing::Values(
        WideFamily{"CONV_2D", "cortex-m4", "speed", {"conv_2d_s8_packed_w16", "conv_2d_s8_packed_kxk_w16"}},
        WideFamily{"FULLY_CONNECTED", "cortex-m4", "speed", {"fully_connected_s8_packed_w16"}},
        WideFamily{"UNIDIRECTIONAL_SEQUENCE_LSTM", "cortex-m4", "speed", {"unidirectional_sequence_lstm_s8_packed_w16"}},
        WideFamily{"SVDF", "cortex-m4", "speed", {"svdf_ring_s8_s8_packed", "svdf_ring_s8_s16_packed"}}),
    [](const ::testing::TestParamInfo<WideFamily>& info) {
      std::string name = std::string(info.param.focus) + "_" + info.param.target;
      for (char& c : name) c = c == '-' ? '_' : c;
      return name;
    });

// The DSP palette kernels (docs/compressed-weights.md) against the portable palette kernel over the same weights:
// models focused on the stem's operator (odd channel counts, strides, padding) clustered to K values per channel and
// kept as palettes in both runs (--cluster-weights K, --compress-weights lossless), K = 2, 4, 8, 16 (1- to 4-bit
// indices) for the k x k kernel, 16 for the 1x1 and the FULLY_CONNECTED ones, 4 and 16 for the 3x3 depthwise one,
// on the Cortex-M4 at balanced; a case counts only when the model calls the stem.
struct PaletteCase {
  const char* stem;
  int values;
};

void PrintTo(const PaletteCase& c, std::ostream* os) { *os << c.stem << " at " << c.values << " values"; }

class DspPaletteKernels : public ::testing::TestWithParam<PaletteCase> {};

TEST_P(DspPaletteKernels, MatchThePortablePaletteKernel) {
  MICROAOT_REQUIRE_QEMU();
  const PaletteCase& c = GetParam();
  std::string output;
  EXPECT_EQ(run_differential({"--kernel", c.stem, "--cases", "1", "--max-tries", "40000", "--target", "cortex-m4",
                              "--optimize", "balanced", "--focus", focus_of(c.stem), "--cluster-weights",
                              std::to_string(c.values)},
                             &output),
            0)
      << output;
}

INSTANTIATE_TEST_SUITE_P(Palette, DspPaletteKernels,
                         ::testing::Values(PaletteCase{"conv_2d_s8_packed_kxk_palette", 2},
                                           PaletteCase{"conv_2d_s8_packed_kxk_palette", 4},
                                           PaletteCase{"conv_2d_s8_packed_kxk_palette", 8},
                                           PaletteCase{"conv_2d_s8_packed_kxk_palette", 16},
                                           PaletteCase{"conv_2d_s8_packed_palette", 16},
                                           PaletteCase{"depthwise_conv_2d_s8_widened_palette", 4},
                                           PaletteCase{"depthwise_conv_2d_s8_widened_palette", 16},
                                           PaletteCase{"fully_connected_s8_packed_palette", 16}),
                         [](const ::testing::TestParamInfo<PaletteCase>& info) {
                           return std::string(info.param.stem) + "_" + std::to_string(info.param.values) + "_values";
                         });

// Every Helium implementation (MICROAOT_KERNEL_ISA(stem, mve, ...)) against the portable kernel on the emulated
// Cortex-M55 (QEMU mps3-an547): three models focused on the stem's operator (padding, odd depths and channel
// counts, row tails: the predicated loops' ends; seed 2's third depthwise model has a depth multiplier other
// than 1, the gather path) and one random model, which the M55's other stems (DSP specialisations of the
// families without a Helium kernel) may join; CONV_2D also the wide shapes.
class MveImplementations : public ::testing::TestWithParam<std::string> {};

TEST_P(MveImplementations, MatchThePortableKernel) {
  MICROAOT_REQUIRE_QEMU();
  const std::string& stem = GetParam();
  const char* focus = focus_of(stem);
  // The recurrent operators' focused models are small and the only ones that reach them: more of those
  // (layouts, batches, steps, clipping; ranks, memories, ring positions), no random model.
  const bool recurrent =
      focus != nullptr && (std::string(focus) == "SVDF" || std::string(focus) == "UNIDIRECTIONAL_SEQUENCE_LSTM");
  std::string output;
  // The stem and its Helium specialisations (the folded-bias kernels, which the M55 takes for most layers).
  std::vector<std::string> kernels = {"--kernel", stem};
  for (const Specialisation& s : kSpecialisations) {
    if (stem == s.parent && std::string(s.isa) == "mve") kernels.insert(kernels.end(), {"--kernel", s.stem});
  }
  const auto with_kernels = [&](std::vector<std::string> args) {
    args.insert(args.begin(), kernels.begin(), kernels.end());
    return args;
  };
  if (focus != nullptr) {
    EXPECT_EQ(run_differential(with_kernels({"--cases", recurrent ? "6" : "3", "--max-tries", "40000", "--target",
                                             "cortex-m55", "--focus", focus, "--seed", "2"}),
                               &output),
              0)
        << output;
  }
  if (recurrent) return;
  EXPECT_EQ(run_differential(with_kernels({"--cases", "1", "--max-tries", "40000", "--target", "cortex-m55"}), &output),
            0)
      << output;
  // The wide shapes (one case each, about 14 s), for the last one: a single output pixel over 70 channels, the
  // Helium rows' units in two chunks of sums, each chunk requantized with its own channels' constants.
  if (focus != nullptr && std::string(focus) == "CONV_2D") {
    EXPECT_EQ(run_differential(
                  with_kernels({"--focus", focus, "--wide", "--max-tries", "200", "--target", "cortex-m55"}), &output),
              0)
        << output;
  }
}

std::vector<std::string> mve_cases() {
  const std::vector<const char*> stems = isa_stems("mve");
  return {stems.begin(), stems.end()};
}

INSTANTIATE_TEST_SUITE_P(Mve, MveImplementations, ::testing::ValuesIn(mve_cases()),
                         [](const ::testing::TestParamInfo<std::string>& info) { return info.param + "_cortex_m55"; });

}  // namespace
}  // namespace microaot::e2e
