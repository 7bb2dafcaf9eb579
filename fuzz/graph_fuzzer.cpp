// libFuzzer entry, structure-aware: the input is a recipe for a small valid .tflite (graph_recipe.cpp),
// so the operator handlers, planner and codegen see many more shapes, types and options than byte
// mutations of real models let through the verifier. Same rule: compile or CompileError, nothing else.
#include <cstddef>
#include <cstdint>
#include <vector>

#include "compile_one.h"
#include "graph_recipe.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  const std::vector<uint8_t> model = microaot::fuzz::model_from_recipe(data, size);
  microaot::fuzz::compile_one(model.data(), model.size());
  return 0;
}
