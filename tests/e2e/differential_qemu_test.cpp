// The differential harness on the emulated Cortex-M4 (where ISA-specific implementations run): a faithful
// candidate passes, a wrong one is caught; every DSP implementation (MICROAOT_KERNEL_ISA lines) against the
// portable kernel on the Cortex-M4 and M7, one random model each or, for the weighted and pooling stems, two
// models focused on their operator (kFocusedStems) (CI time), the packed specialisations of 1x1 CONV_2D and
// FULLY_CONNECTED within their stems' cases, the k x k packed CONV_2D as a case of its own, all over int16
// weights on the M4 (--optimize speed) and int8 ones on the M7 (balanced) (the host tests of
// runtime/kernels/dsp_kernels_test.cpp and compiler/ops/packed_weights_test.cpp cover many shapes; these run the
// real instructions).
#include <gtest/gtest.h>

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
// int16 weights, their _w16 stems), the M7 with balanced (the same DSP kernels, the packed ones over int8
// weights), so that both weight forms run on the instructions without more cases.
struct Cpu {
  const char *target, *optimize, *packed_suffix;
};
const Cpu kCpus[] = {{"cortex-m4", "speed", "_w16"}, {"cortex-m7", "balanced", ""}};

// A packed stem as the cpu's setting picks it.
std::string flavoured(const std::string& stem, const Cpu& cpu) {
  return stem.find("_packed") != std::string::npos ? stem + cpu.packed_suffix : stem;
}

struct DspCase {
  std::string stem;
  const Cpu* cpu;
  const char* focus;  // the operator of the case's focused models (kFocusedStems), or nullptr: random models
};

void PrintTo(const DspCase& c, std::ostream* os) { *os << c.stem << " on " << c.cpu->target; }

class DspImplementations : public ::testing::TestWithParam<DspCase> {};

// Stems that lowering picks instead of an ISA stem for some layers on a DSP target (compiler/ops/packed_weights.h,
// compiler/ops/add_linear.h, compiler/ops/depthwise_dsp_path.h, compiler/ops/average_pool_2d.cpp):
// a model calling either exercises the stem's case, so that the case still finds models and covers both.
const char* const kSpecialisations[][2] = {{"conv_2d_s8", "conv_2d_s8_packed"},
                                           {"fully_connected_s8", "fully_connected_s8_packed"},
                                           {"add_s8", "add_s8_linear"},
                                           {"depthwise_conv_2d_s8", "depthwise_conv_2d_s8_ring"},
                                           {"average_pool_2d_s8", "average_pool_2d_s8_lanes"}};

// The second column of `table`'s row for `stem`, or nullptr.
template <size_t N>
const char* paired_with(const char* const (&table)[N][2], const std::string& stem) {
  for (const auto& row : table) {
    if (stem == row[0]) return row[1];
  }
  return nullptr;
}

TEST_P(DspImplementations, MatchThePortableKernel) {
  MICROAOT_REQUIRE_QEMU();
  const DspCase& c = GetParam();
  // A focused case's models are small: two of them, so that more of the stem's paths (padding, tiles) come up.
  std::vector<std::string> args = {"--kernel", c.stem, "--cases", c.focus != nullptr ? "2" : "1", "--max-tries",
                                   "40000", "--target", c.cpu->target, "--optimize", c.cpu->optimize};
  if (const char* specialised = paired_with(kSpecialisations, c.stem)) {
    args.insert(args.end(), {"--kernel", flavoured(specialised, *c.cpu)});
  }
  if (c.focus != nullptr) args.insert(args.end(), {"--focus", c.focus});
  std::string output;
  EXPECT_EQ(run_differential(args, &output), 0) << output;
}

// Stems lowering picks on a DSP target that random models rarely reach within another stem's case: a case each.
const char* const kSpecialisedStems[] = {"conv_2d_s8_packed_kxk"};

// The operator whose focused models (--focus, fuzz::focused_model_from_recipe) a stem's case draws: one layer
// on an image, windows and depths leaning towards the specialised stems, per-channel weights, sums that seldom
// clamp. Random models' sums mostly clamp, so that a kernel mixing up two channels' constants passed them, and
// none in 400,000 reaches the ring (3x3, stride 1, depth 4k, rows of 3 to 12); the pool's lanes and global
// kernels come late (the lanes' at try 5,008 of seed 1). Stems not listed take random models.
const char* const kFocusedStems[][2] = {{"conv_2d_s8", "CONV_2D"},
                                        {"conv_2d_s8_packed_kxk", "CONV_2D"},
                                        {"fully_connected_s8", "FULLY_CONNECTED"},
                                        {"depthwise_conv_2d_s8", "DEPTHWISE_CONV_2D"},
                                        {"depthwise_conv_2d_s8_ring", "DEPTHWISE_CONV_2D"},
                                        {"average_pool_2d_s8", "AVERAGE_POOL_2D"},
                                        {"average_pool_2d_s8_lanes", "AVERAGE_POOL_2D"},
                                        {"average_pool_2d_s8_global", "AVERAGE_POOL_2D"}};

// The stems of the MICROAOT_KERNEL_ISA(stem, dsp, ...) lines and the specialised stems, each on both cpus.
std::vector<DspCase> dsp_cases() {
  struct Implementation {
    const char *stem, *isa;
  };
  const Implementation implementations[] = {
#define MICROAOT_KERNEL_ISA(stem, isa, source) {#stem, #isa},
#include "microaot/kernel_list.def"
  };
  std::vector<const char*> stems;
  for (const Implementation& impl : implementations) {
    if (std::string(impl.isa) == "dsp") stems.push_back(impl.stem);
  }
  stems.insert(stems.end(), std::begin(kSpecialisedStems), std::end(kSpecialisedStems));
  std::vector<DspCase> cases;
  for (const char* stem : stems) {
    for (const Cpu& cpu : kCpus) cases.push_back({flavoured(stem, cpu), &cpu, paired_with(kFocusedStems, stem)});
  }
  return cases;
}

INSTANTIATE_TEST_SUITE_P(Dsp, DspImplementations, ::testing::ValuesIn(dsp_cases()),
                         [](const ::testing::TestParamInfo<DspCase>& info) {
                           std::string name = info.param.stem + "_" + info.param.cpu->target;
                           for (char& c : name) c = c == '-' ? '_' : c;
                           return name;
                         });

}  // namespace
}  // namespace microaot::e2e
