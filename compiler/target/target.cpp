#include "target/target.h"

#include <sstream>
#include <vector>

#include "support/diagnostics.h"

namespace microaot {

namespace {
struct CpuInfo {
  const char* name;
  const char* arch;
  bool dsp;
  bool mve;
  const char* fpu;
};

// Facts of the Arm cores (Technical Reference Manuals): the default configuration of each.
constexpr CpuInfo kCpus[] = {
    {"cortex-m0", "armv6-m", false, false, "none"},
    {"cortex-m0plus", "armv6-m", false, false, "none"},
    {"cortex-m3", "armv7-m", false, false, "none"},
    {"cortex-m4", "armv7e-m", true, false, "fpv4-sp-d16"},
    {"cortex-m7", "armv7e-m", true, false, "fpv5-d16"},
    {"cortex-m23", "armv8-m.base", false, false, "none"},
    {"cortex-m33", "armv8-m.main", true, false, "fpv5-sp-d16"},
    {"cortex-m35p", "armv8-m.main", true, false, "fpv5-sp-d16"},
    {"cortex-m55", "armv8.1-m.main", true, true, "fpv5-d16"},
    {"cortex-m85", "armv8.1-m.main", true, true, "fpv5-d16"},
};

const CpuInfo* find_cpu(const std::string& name) {
  for (const CpuInfo& cpu : kCpus) {
    if (name == cpu.name) return &cpu;
  }
  return nullptr;
}

// The feature switches the kernels depend on, as -mcpu modifiers ("cortex-m33+nodsp") and as tvmc's
// -mattr entries ("-mattr=+nodsp", LLVM's "-dsp"). A switch that adds a feature only confirms the cpu has it.
struct FeatureSwitch {
  const char* modifier;  // after '+' in -mcpu, or as "+name" in -mattr
  const char* llvm;      // LLVM's -mattr spelling of the same switch
  void (*apply)(Target& t);
};
constexpr FeatureSwitch kFeatureSwitches[] = {
    {"nodsp", "-dsp", [](Target& t) { t.dsp = t.mve = false; }},  // MVE needs the DSP extension
    {"nomve", "-mve", [](Target& t) { t.mve = false; }},
    {"nofp", "-fp", [](Target& t) { t.fpu = "none"; }},
};

std::string known_switches(bool mattr) {
  std::string names;
  for (const FeatureSwitch& f : kFeatureSwitches) {
    names += (names.empty() ? "" : ", ") + std::string("+") + f.modifier + (mattr ? std::string(", ") + f.llvm : "");
  }
  return names + (mattr ? ", +dsp, +mve (the cpu has them)" : "");
}

// Applies one switch; false when `name` is none.
bool apply_switch(Target& t, const std::string& name) {
  for (const FeatureSwitch& f : kFeatureSwitches) {
    if (name == std::string("+") + f.modifier || name == f.llvm) {
      f.apply(t);
      return true;
    }
  }
  return false;
}

// "-mattr=+nodsp,-mve": each entry switches a feature off, or (+dsp, +mve) confirms the cpu has it.
void apply_mattr(Target& t, const std::string& list, const std::string& text) {
  std::istringstream in(list);
  for (std::string entry; std::getline(in, entry, ',');) {
    if (apply_switch(t, entry)) continue;
    if (entry == "+dsp" || entry == "+mve") {
      if (entry == "+dsp" ? t.dsp : t.mve) continue;
      throw CompileError("-mattr entry '" + entry + "' in --target \"" + text + "\": " +
                         (t.is_generic() ? std::string("generic C") : t.cpu) + " has no " +
                         (entry == "+dsp" ? "DSP extension" : "MVE (Helium)") + "; give an -mcpu that has it");
    }
    throw CompileError("unknown -mattr entry '" + entry + "' in --target \"" + text +
                       "\" (known: " + known_switches(true) + ")");
  }
}

// "cortex-m33+nodsp+nofp": the cpu's defaults, then each modifier.
Target cpu_target(const std::string& spec, const std::string& text) {
  std::vector<std::string> parts;
  std::istringstream in(spec);
  for (std::string part; std::getline(in, part, '+');) parts.push_back(part);
  const CpuInfo* cpu = parts.empty() ? nullptr : find_cpu(parts[0]);
  if (cpu == nullptr) {
    throw CompileError("unknown -mcpu '" + spec + "' in --target \"" + text + "\" (known: " + known_cpus() + ")");
  }
  Target t;
  t.cpu = cpu->name;
  t.arch = cpu->arch;
  t.dsp = cpu->dsp;
  t.mve = cpu->mve;
  t.fpu = cpu->fpu;
  for (size_t i = 1; i < parts.size(); ++i) {
    if (!apply_switch(t, "+" + parts[i])) {
      throw CompileError("unknown -mcpu modifier '+" + parts[i] + "' in --target \"" + text +
                         "\" (known: " + known_switches(false) + ")");
    }
  }
  return t;
}

// Target options that only name things for TVM's dispatch (board, keys, device): they change no code here.
constexpr const char* kNamingOptions[] = {"-model=", "-keys=", "-device=", "-tag="};

bool is_naming_option(const std::string& option) {
  for (const char* prefix : kNamingOptions) {
    if (option.rfind(prefix, 0) == 0) return true;
  }
  return false;
}

// tvmc lists targets before the C one: "cmsis-nn, c -mcpu=...".
std::string strip_cmsis_nn(const std::string& text, bool* requested) {
  const std::string prefix = "cmsis-nn";
  size_t at = text.find_first_not_of(' ');
  if (at == std::string::npos || text.compare(at, prefix.size(), prefix) != 0) return text;
  at = text.find_first_not_of(' ', at + prefix.size());
  if (at == std::string::npos || text[at] != ',') {
    throw CompileError("--target \"" + text + "\": cmsis-nn must be followed by \", c\" (tvmc's spelling)");
  }
  *requested = true;
  return text.substr(at + 1);
}
}  // namespace

std::string known_cpus() {
  std::string names;
  for (const CpuInfo& cpu : kCpus) names += (names.empty() ? "" : ", ") + std::string(cpu.name);
  return names;
}

std::string Target::describe() const {
  if (is_generic()) return "generic C";
  std::string text = cpu + " (" + arch;
  if (dsp) text += ", dsp";
  if (mve) text += ", mve";
  return text + ", fpu " + fpu + ")";
}

Target parse_target(const std::string& text) {
  bool fast = false;
  std::istringstream in(strip_cmsis_nn(text, &fast));
  std::string word;
  in >> word;
  std::string cpu;
  std::vector<std::string> mattrs;
  if (word == "c" || word == "host" || word == "llvm" || word.empty()) {
    for (std::string option; in >> option;) {
      if (option.rfind("-mcpu=", 0) == 0) {
        cpu = option.substr(6);
      } else if (option.rfind("-mattr=", 0) == 0) {
        mattrs.push_back(option.substr(7));
      } else if (!is_naming_option(option)) {
        throw CompileError("unknown target option '" + option + "' in --target \"" + text +
                           "\" (known: -mcpu=CPU, -mattr=+nodsp,+nomve,+nofp; -model, -keys, -device and -tag "
                           "only name things)");
      }
    }
  } else {
    cpu = word;
  }
  Target target = cpu.empty() ? Target{} : cpu_target(cpu, text);
  for (const std::string& list : mattrs) apply_mattr(target, list, text);
  target.fast_kernels_requested = fast;
  return target;
}

const char* optimize_name(const Target& target) {
  if (target.optimize_size) return "size";
  return target.optimize_balanced ? "balanced" : "speed";
}

// Palettes by default at size and balanced. On a DSP target at balanced only where the DSP palette kernel takes
// the layer and no in-place plan is lost: the portable palette kernels cost about 9x the packed kernels'
// instructions (KWS on the M4), which only an explicit --compress-weights buys.
int default_compress_bits(const Target& target) {
  return target.optimize_size || target.optimize_balanced ? kLosslessPaletteBits : 0;
}

bool default_compress_fast_only(const Target& target) {
  return target.optimize_balanced && target.kernels_use_dsp();
}

std::string compress_weights_name(int bits) {
  if (bits == 0) return "off";
  return bits == kLosslessPaletteBits ? "lossless" : std::to_string(bits);
}

const char* optimize_c_flag(const Target& target) { return target.optimize_size ? "-Os" : "-O2"; }

}  // namespace microaot
