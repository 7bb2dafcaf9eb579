#include "kernels/kernel_registry.h"

#include <algorithm>
#include <cstring>
#include <iterator>
#include <memory>
#include <sstream>
#include <stdexcept>

#include "microaot/kernels.h"
#include "support/diagnostics.h"

namespace microaot {

namespace {
constexpr ParamKind kI32 = ParamKind::kI32;
constexpr ParamKind kF32 = ParamKind::kF32;
constexpr ParamKind kI8_ARRAY = ParamKind::kI8Array;
constexpr ParamKind kI16_ARRAY = ParamKind::kI16Array;
constexpr ParamKind kI32_ARRAY = ParamKind::kI32Array;
constexpr ParamKind kF32_ARRAY = ParamKind::kF32Array;

#define MICROAOT_FIELD_ENTRY(kind, field) {#field, k##kind},

// One ParamStruct per distinct params name of the kernel list, in first-use order.
std::vector<ParamStruct> param_structs() {
  std::vector<ParamStruct> structs;
  const auto add = [&](const char* name, std::vector<ParamField> fields) {
    for (const ParamStruct& s : structs) {
      if (s.name == name) return;
    }
    structs.push_back({name, std::move(fields)});
  };
#define MICROAOT_KERNEL(id, stem, variant, struct_name, header, source, dtype, signature) \
  add(#struct_name, {MICROAOT_FIELDS_##struct_name(MICROAOT_FIELD_ENTRY)});
#include "microaot/kernel_list.def"
#undef MICROAOT_KERNEL
  return structs;
}

DType dtype_named(const std::string& name) {
  for (DType t : {DType::kFloat32, DType::kInt8, DType::kUInt8, DType::kInt16, DType::kInt32, DType::kInt64,
                  DType::kBool}) {
    if (name == dtype_short_name(t)) return t;
  }
  throw std::invalid_argument("unknown element type '" + name + "'");
}

KernelVariant variant_named(const std::string& name) {
  if (name == "plain") return KernelVariant::kPlain;
  if (name == "overlap") return KernelVariant::kOverlap;
  MICROAOT_CHECK(false, "kernel_list.def: unknown variant '" + name + "'");
}

const ParamStruct* struct_named(const std::vector<ParamStruct>& structs, const std::string& name) {
  for (const ParamStruct& s : structs) {
    if (s.name == name) return &s;
  }
  MICROAOT_CHECK(false, "kernel_list.def: no params struct '" + name + "'");
}

KernelInfo kernel_entry(const std::vector<ParamStruct>& structs, int id, const char* stem, const char* variant,
                        const char* params, const char* header, const char* source, const char* dtype,
                        const char* signature) {
  KernelInfo k;
  k.id = id;
  k.stem = stem;
  k.variant = variant_named(variant);
  k.symbol = k.variant == KernelVariant::kOverlap ? k.stem + "_overlap" : k.stem;
  k.params = struct_named(structs, params);
  k.header = std::string("microaot/kernels/") + header;
  // A bare name is portable; "dsp/x.c" names the instruction-set folder of a stem written for it alone.
  k.source = std::string("kernels/") + (std::strchr(source, '/') != nullptr ? "" : "portable/") + source;
  try {
    k.dtype = std::string(dtype) == "any" ? DType::kUnsupported : dtype_named(dtype);
    k.args = parse_kernel_signature(signature);
  } catch (const std::invalid_argument& e) {
    MICROAOT_CHECK(false, "kernel_list.def, " + k.symbol + ": " + e.what());
  }
  return k;
}

std::unique_ptr<KernelRegistry> build_registry() {
  auto registry = std::make_unique<KernelRegistry>();
  registry->params = param_structs();  // not resized afterwards: kernels point into it
#define MICROAOT_KERNEL(id, stem, variant, struct_name, header, source, dtype, signature)                   \
  registry->kernels.push_back(                                                                              \
      kernel_entry(registry->params, id, #stem, #variant, #struct_name, header, source, #dtype, signature));
#define MICROAOT_KERNEL_ISA(stem, isa, source) \
  registry->implementations.push_back({#stem, #isa, std::string("kernels/") + #isa + "/" + source});
#define MICROAOT_KERNEL_SPECIALISATION(stem, parent, isa) registry->specialisations.push_back({#stem, #parent, #isa});
#define MICROAOT_KERNEL_FOLD(from, into, adapt, why) registry->folds.push_back({#from, #into, #adapt, why});
#define MICROAOT_KERNEL_NEXT_ID(id) registry->next_id = id;
#include "microaot/kernel_list.def"
#undef MICROAOT_KERNEL_NEXT_ID
#undef MICROAOT_KERNEL
#undef MICROAOT_KERNEL_ISA
#undef MICROAOT_KERNEL_SPECIALISATION
#undef MICROAOT_KERNEL_FOLD
  const std::string problem = kernel_id_problem(registry->kernels, registry->next_id);
  MICROAOT_CHECK(problem.empty(), "kernel_list.def: " + problem);
  return registry;
}
}  // namespace

std::string kernel_id_problem(const std::vector<KernelInfo>& kernels, int next_id) {
  for (size_t i = 0; i < kernels.size(); ++i) {
    if (kernels[i].id != static_cast<int>(i)) {
      return kernels[i].symbol + " has id " + std::to_string(kernels[i].id) + " at position " + std::to_string(i);
    }
  }
  if (next_id != static_cast<int>(kernels.size())) {
    return "MICROAOT_KERNEL_NEXT_ID(" + std::to_string(next_id) + ") after " + std::to_string(kernels.size()) +
           " kernel lines: set it to " + std::to_string(kernels.size()) + " (the id the next appended line takes)";
  }
  return "";
}

bool is_array(ParamKind kind) { return kind != ParamKind::kI32 && kind != ParamKind::kF32; }
bool is_float(ParamKind kind) { return kind == ParamKind::kF32 || kind == ParamKind::kF32Array; }

size_t element_bytes(ParamKind kind) {
  switch (kind) {
    case ParamKind::kI8Array: return 1;
    case ParamKind::kI16Array: return 2;
    case ParamKind::kI32:
    case ParamKind::kF32:
    case ParamKind::kI32Array:
    case ParamKind::kF32Array: return 4;
  }
  return 0;
}

const char* param_c_type(ParamKind kind) {
  switch (kind) {
    case ParamKind::kI8Array: return "int8_t";
    case ParamKind::kI16Array: return "int16_t";
    case ParamKind::kI32:
    case ParamKind::kI32Array: return "int32_t";
    case ParamKind::kF32:
    case ParamKind::kF32Array: return "float";
  }
  return "void";
}

int ParamStruct::find(const std::string& field) const {
  for (size_t i = 0; i < fields.size(); ++i) {
    if (fields[i].name == field) return static_cast<int>(i);
  }
  return -1;
}

const char* variant_name(KernelVariant variant) { return variant == KernelVariant::kPlain ? "plain" : "overlap"; }

bool KernelInfo::takes_scratch() const {
  for (const KernelArgSpec& a : args) {
    if (a.role == KernelArgSpec::Role::kScratch) return true;
  }
  return false;
}

bool KernelInfo::returns_status() const {
  return std::any_of(args.begin(), args.end(), [](const KernelArgSpec& a) { return a.role == KernelArgSpec::Role::kStatus; });
}

std::vector<KernelArgSpec> KernelInfo::tensor_args() const {
  std::vector<KernelArgSpec> tensors;
  for (const KernelArgSpec& a : args) {
    if (a.role != KernelArgSpec::Role::kScratch && a.role != KernelArgSpec::Role::kStatus) tensors.push_back(a);
  }
  return tensors;
}

size_t KernelInfo::fixed_arg_count() const {
  const std::vector<KernelArgSpec> tensors = tensor_args();
  return static_cast<size_t>(std::count_if(tensors.begin(), tensors.end(), [](const KernelArgSpec& a) { return !a.is_list(); }));
}

bool KernelInfo::has_list() const { return tensor_args().size() > fixed_arg_count(); }

std::vector<std::vector<int>> split_arguments(const KernelInfo& kernel, const std::vector<int>& args) {
  const size_t fixed = kernel.fixed_arg_count();
  MICROAOT_CHECK(kernel.has_list() ? args.size() > fixed : args.size() == fixed,
                 "argument count does not fit the signature of " + kernel.function());
  std::vector<std::vector<int>> groups;
  auto next = args.begin();
  for (const KernelArgSpec& spec : kernel.tensor_args()) {
    const size_t count = spec.is_list() ? args.size() - fixed : 1;
    groups.emplace_back(next, next + static_cast<std::ptrdiff_t>(count));
    next += static_cast<std::ptrdiff_t>(count);
  }
  return groups;
}

const KernelInfo* KernelRegistry::find(const std::string& stem, KernelVariant variant) const {
  for (const KernelInfo& k : kernels) {
    if (k.stem == stem && k.variant == variant) return &k;
  }
  return nullptr;
}

const KernelInfo& KernelRegistry::by_id(int id) const {
  MICROAOT_CHECK(id >= 0 && id < static_cast<int>(kernels.size()), "kernel id out of range");
  return kernels[id];
}

const KernelSpecialisation* KernelRegistry::specialisation_of(const std::string& stem) const {
  for (const KernelSpecialisation& s : specialisations) {
    if (s.stem == stem) return &s;
  }
  return nullptr;
}

std::string KernelRegistry::root_of(const std::string& stem) const {
  std::string root = stem;
  for (size_t depth = 0; const KernelSpecialisation* s = specialisation_of(root); ++depth) {
    MICROAOT_CHECK(depth < specialisations.size(), "kernel_list.def: a loop of specialisations through " + stem);
    root = s->parent;
  }
  return root;
}

bool KernelRegistry::specialises(const std::string& stem, const std::string& ancestor) const {
  std::vector<std::string> open = {stem};
  for (size_t visited = 0; !open.empty(); ++visited) {
    MICROAOT_CHECK(visited <= specialisations.size() * specialisations.size(),
                   "kernel_list.def: a loop of specialisations through " + stem);
    const std::string next = open.back();
    open.pop_back();
    if (next == ancestor) return true;
    for (const KernelSpecialisation& s : specialisations) {
      if (s.stem == next) open.push_back(s.parent);
    }
  }
  return false;
}

const KernelRegistry& kernel_registry() {
  static const std::unique_ptr<KernelRegistry> registry = build_registry();
  return *registry;
}

std::vector<KernelArgSpec> parse_kernel_signature(const std::string& signature) {
  using Role = KernelArgSpec::Role;
  static const std::pair<const char*, Role> kRoles[] = {{"in", Role::kIn},          {"in?", Role::kOptionalIn},
                                                         {"out", Role::kOut},        {"in*", Role::kInList},
                                                         {"out*", Role::kOutList}};
  std::vector<KernelArgSpec> args;
  std::istringstream in(signature);
  for (std::string word; in >> word;) {
    if (word == "scratch" || word == "status") {
      args.push_back({word == "scratch" ? Role::kScratch : Role::kStatus});
      continue;
    }
    const size_t colon = word.find(':');
    const std::string role = word.substr(0, colon);
    const auto* found = std::find_if(std::begin(kRoles), std::end(kRoles), [&](const auto& r) { return role == r.first; });
    if (colon == std::string::npos || found == std::end(kRoles)) throw std::invalid_argument("bad signature word '" + word + "'");
    const std::string type = word.substr(colon + 1);
    KernelArgSpec spec{found->second};
    spec.any_type = type == "any";
    if (!spec.any_type) spec.dtype = dtype_named(type);
    args.push_back(spec);
  }
  if (std::count_if(args.begin(), args.end(), [](const KernelArgSpec& a) { return a.is_list(); }) > 1) {
    throw std::invalid_argument("more than one list in '" + signature + "'");
  }
  return args;
}

}  // namespace microaot
