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

// The stem `stem` specialises, or "" for a family's generic stem.
std::string parent_of(const std::string& stem) {
  for (const Specialisation& s : kSpecialisations) {
    if (stem == s.stem) return s.parent;
  }
  return "";
}

// Stems lowering picks on a DSP target that random models rarely reach within another stem's case: a case each.
const char* const kSpecialisedStems[] = {"conv_2d_s8_packed_kxk"};

// The stems lowering picks instead of `stem` for some layers on a DSP target (its specialisations in the list,
// each in the cpu's form; not those with a case of their own in kSpecialisedStems): a model calling any of them
// exercises the stem's case, so that the case still finds models and covers them all.
std::vector<std::string> specialisations_of(const std::string& stem, const Cpu& cpu) {
  std::vector<std::string> stems;
  for (const Specialisation& s : kSpecialisations) {
    const bool own_case = std::find(std::begin(kSpecialisedStems), std::end(kSpecialisedStems),
                                    std::string(s.stem)) != std::end(kSpecialisedStems);
    const bool weight_form = std::string(s.stem) == stem + "_w16";  // the stem itself on the M4: flavoured()
    const bool portable = std::string(s.isa) == "portable";  // picked for the weights' values, not the cpu
    if (stem == s.parent && !own_case && !weight_form && !portable) stems.push_back(flavoured(s.stem, cpu));
  }
  return stems;
}

// The operators whose focused models (--focus, fuzz::focused_model_from_recipe) their stems' cases draw: one
// layer on an image, windows and depths leaning towards the specialised stems, per-channel weights, sums that
// seldom clamp. Random models' sums mostly clamp, so that a kernel mixing up two channels' constants passed
// them, and none in 400,000 reaches the ring (3x3, stride 1, depth 4k, rows of 3 to 12); the pool's lanes and
// global kernels come late (the lanes' at try 5,008 of seed 1). A stem of another operator takes random models.
const char* const kFocusedOperators[] = {"CONV_2D", "FULLY_CONNECTED", "DEPTHWISE_CONV_2D", "AVERAGE_POOL_2D"};

// The focused operator of `stem`'s family (its generic stem's operator: conv_2d_s8 -> CONV_2D), or nullptr.
const char* focus_of(std::string stem) {
  for (std::string parent = parent_of(stem); !parent.empty(); parent = parent_of(stem)) stem = parent;
  std::string op = stem.substr(0, stem.rfind('_'));  // the element type's suffix off
  std::transform(op.begin(), op.end(), op.begin(), [](unsigned char c) { return static_cast<char>(std::toupper(c)); });
  for (const char* focused : kFocusedOperators) {
    if (op == focused) return focused;
  }
  return nullptr;
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
  std::string output;
  EXPECT_EQ(run_differential(args, &output), 0) << output;
}

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
    for (const Cpu& cpu : kCpus) cases.push_back({flavoured(stem, cpu), stem, &cpu, focus_of(stem)});
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
