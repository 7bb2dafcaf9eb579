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
// depth 4k; none in 400,000 random models), the average pool's lanes and global kernels. `sixteen_by_eight`: a
// weighted operator in 16x8 instead (int16 input and output at zero point 0, int64 bias; the 16x8 kernels), an
// ADD, SUB or MUL in int16 (zero points 0).
std::vector<uint8_t> focused_model_from_recipe(const tflite_test::ListedOp& focus, const uint8_t* data,
                                               size_t size, bool sixteen_by_eight = false);

// One `focus` operator (CONV_2D or FULLY_CONNECTED) of a shape well outside the shared models', for the packed
// kernels' reduction in chunks: shape `shape` (modulo wide_shape_count) of a fixed list, windows of 693 to 2,400
// elements, 1x1 and k x k, odd depths and channel counts, strides and dilations of 2; FULLY_CONNECTED depths of 700
// to 4,000, odd units and rows. Quantization, weights, bias and activation as focused_model_from_recipe's, from
// the recipe (65,536 bytes give every weight); empty for another operator.
std::vector<uint8_t> wide_model_from_recipe(const tflite_test::ListedOp& focus, int shape, const uint8_t* data,
                                            size_t size);

// How many wide shapes `focus` has (0: none).
int wide_shape_count(const tflite_test::ListedOp& focus);

// The focused model of a recurrent operator (UNIDIRECTIONAL_SEQUENCE_LSTM, SVDF: int8, its state in variable
// tensors, sizes and constants from the bytes; recurrent_recipe.cpp), which focused_model_from_recipe returns for
// them, and wide_model_from_recipe with `wide_input` inputs a step (0: drawn); empty for another operator.
std::vector<uint8_t> recurrent_model_from_recipe(const tflite_test::ListedOp& focus, const uint8_t* data,
                                                 size_t size, int32_t wide_input = 0);

}  // namespace microaot::fuzz
