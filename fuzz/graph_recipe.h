// Structure-aware fuzzing: turns fuzz bytes into a small, well-formed .tflite whose operators, shapes,
// types, quantization and options are all chosen by the bytes. Byte-level mutation of real models
// mostly stops at the flatbuffer verifier; these models get through it and the data-flow checks and
// exercise the operator handlers, lowering, planning and codegen.
#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

namespace microaot::fuzz {

std::vector<uint8_t> model_from_recipe(const uint8_t* data, size_t size);

}  // namespace microaot::fuzz
