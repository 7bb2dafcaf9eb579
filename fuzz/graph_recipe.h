// Structure-aware fuzzing: turns fuzz bytes into a small, well-formed .tflite whose operators, shapes,
// types, quantization and options are all chosen by the bytes. Byte-level mutation of real models
// mostly stops at the flatbuffer verifier; these models get through it and the data-flow checks and
// exercise the operator handlers, lowering, planning and codegen.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "frontend/tflite_test_ops.h"

namespace microaot::fuzz {

std::vector<uint8_t> model_from_recipe(const uint8_t* data, size_t size);

// The operator list's line of a TFLite builtin name ("DEPTHWISE_CONV_2D"); nullptr for none.
const tflite_test::ListedOp* listed_op_named(const std::string& name);

// One `focus` operator on an int8 image of up to 16 x 16 pixels whose depth is a multiple of four one time in
// two: windows mostly 3x3 at unit strides, now and then over the whole image (focus_choices); a weighted
// operator's weights per channel, its weights and bias random bytes, its output scale sized to its sums, so
// that few outputs clamp (calibrate_weighted). The differential harness's models for the kernels' arithmetic,
// and its way to the specialised stems that random models seldom reach: the depthwise ring (3x3, stride 1,
// depth 4k; none in 400,000 random models), the average pool's lanes and global kernels.
std::vector<uint8_t> focused_model_from_recipe(const tflite_test::ListedOp& focus, const uint8_t* data,
                                               size_t size);

// The focused model of a recurrent operator (UNIDIRECTIONAL_SEQUENCE_LSTM, SVDF: int8, its state in variable
// tensors, sizes and constants from the bytes; recurrent_recipe.cpp), which focused_model_from_recipe returns for
// them; empty for another operator.
std::vector<uint8_t> recurrent_model_from_recipe(const tflite_test::ListedOp& focus, const uint8_t* data,
                                                 size_t size);

}  // namespace microaot::fuzz
