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
    if (parts[i] == "nodsp") {
      t.dsp = t.mve = false;  // MVE needs the DSP extension
    } else if (parts[i] == "nofp") {
      t.fpu = "none";
    } else if (parts[i] == "nomve") {
      t.mve = false;
    } else {
      throw CompileError("unknown -mcpu modifier '+" + parts[i] + "' in --target \"" + text +
                         "\" (known: +nodsp, +nofp, +nomve)");
    }
  }
  return t;
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
  if (word == "c" || word == "host" || word == "llvm" || word.empty()) {
    for (std::string option; in >> option;) {
      if (option.rfind("-mcpu=", 0) == 0) {
        cpu = option.substr(6);
      } else if (option.rfind("-", 0) != 0 || option.find('=') == std::string::npos) {
        throw CompileError("unknown target option '" + option + "' in --target \"" + text + "\"");
      }
    }
  } else {
    cpu = word;
  }
  Target target = cpu.empty() ? Target{} : cpu_target(cpu, text);
  target.fast_kernels_requested = fast;
  return target;
}

const char* optimize_name(const Target& target) {
  if (target.optimize_size) return "size";
  return target.optimize_balanced ? "balanced" : "speed";
}

const char* optimize_c_flag(const Target& target) { return target.optimize_size ? "-Os" : "-O2"; }

}  // namespace microaot
