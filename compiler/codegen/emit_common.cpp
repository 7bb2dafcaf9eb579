#include <algorithm>
#include <set>

#include "codegen/c_text.h"
#include "codegen/emit.h"

namespace microaot {

ModuleNames module_names(const CompiledModel& model) {
  return {c_identifier(model.options.module_name), c_macro_name(model.options.module_name)};
}

std::string constant_symbol(const CompiledModel& model, int tensor_id) {
  return module_names(model).prefix + "_tensor_" + std::to_string(tensor_id);
}

std::vector<int> used_constants(const CompiledModel& model) {
  std::set<int> ids;
  for (const KernelCall& call : model.calls) {
    for (int id : call.args) {
      if (id != kNoTensor && model.graph.tensor(id).is_constant) ids.insert(id);
    }
  }
  return {ids.begin(), ids.end()};
}

int64_t weights_bytes(const CompiledModel& model) {
  int64_t total = 0;
  for (int id : used_constants(model)) total += model.graph.tensor(id).byte_size();
  return total;
}

int64_t static_ram_bytes(const CompiledModel& model) {
  constexpr int64_t kContextBytes32 = 8;  // state enum + arena pointer on a 32-bit MCU
  const int64_t contexts = model.options.interface_api_c ? 2 : 1;
  return model.plan.arena_size + contexts * kContextBytes32;
}

}  // namespace microaot
