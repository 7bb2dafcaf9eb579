// int8 ADD, SUB and MUL with one operand broadcast on the emulated Cortex-M4 (label qemu): a generated model of
// every folded form (a per-channel vector short and long, a scalar, a row constant; with and without a clamp;
// the vector as either input) runs bit-exact with the host build, each layer on its DSP kernel within the
// instructions per element docs/dsp-add-depthwise.md states; full operands clamped inside the int8 range, and MUL,
// pack their outputs by word; the int8 cases of ../shared/ops match their TFLM goldens on the M4; a model of
// full-operand ADDs keeps the lean kernel and its stack.
#include <gtest/gtest.h>

#include <fstream>
#include <iostream>
#include <map>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "bench_random.h"
#include "e2e_util.h"
#include "frontend/tflite_test_builder.h"

using nlohmann::json;

namespace microaot::e2e {
namespace {

using tflite_test::activation;
using tflite_test::ModelSpec;
using tflite_test::OpSpec;
using AF = tflite::ActivationFunctionType;

enum class Kind { kAdd, kSub, kMul };

OpSpec binary(Kind kind, int32_t a, int32_t b, int32_t out, AF act) {
  OpSpec o = tflite_test::op(kind == Kind::kAdd ? 0 : kind == Kind::kSub ? 41 : 18, 2, {a, b}, {out});
  if (kind == Kind::kAdd) {
    o.options_type = tflite::BuiltinOptions::AddOptions;
    o.options = [act](flatbuffers::FlatBufferBuilder& fbb) { return tflite::CreateAddOptions(fbb, act).Union(); };
  } else if (kind == Kind::kSub) {
    o.options_type = tflite::BuiltinOptions::SubOptions;
    o.options = [act](flatbuffers::FlatBufferBuilder& fbb) { return tflite::CreateSubOptions(fbb, act).Union(); };
  } else {
    o.options_type = tflite::BuiltinOptions::MulOptions;
    o.options = [act](flatbuffers::FlatBufferBuilder& fbb) { return tflite::CreateMulOptions(fbb, act).Union(); };
  }
  return o;
}

// One layer of the model: what network_info.txt says of it and the instructions per element it may take.
struct Layer {
  const char* form;  // the words of its specialisation
  const char* kernel;
  double per_element;
};

// Inputs x [1,16,16,32], v [32], s [1], r [1,16,1,1], y [1,4,4,200], u [200], w [1,1,1,32]; one layer per
// folded form.
ModelSpec broadcast_model(std::map<int, Layer>* layers) {
  ModelSpec m;
  m.tensors = {activation("x", {1, 16, 16, 32}, 0.05f, -3), activation("v", {32}, 0.04f, 5),
               activation("s", {1}, 0.03f, -7),               activation("r", {1, 16, 1, 1}, 0.06f, 2),
               activation("y", {1, 4, 4, 200}, 0.05f, 9),      activation("u", {200}, 0.04f, -11),
               activation("t6", {1, 16, 16, 32}, 0.07f, 1),   activation("t7", {1, 16, 16, 32}, 0.05f, -20),
               activation("t8", {1, 16, 16, 32}, 0.05f, -100), activation("t9", {1, 16, 16, 32}, 0.07f, -60),
               activation("t10", {1, 4, 4, 200}, 0.07f, 4),    activation("w", {1, 1, 1, 32}, 1.0f / 256, -128),
               activation("t12", {1, 16, 16, 32}, 0.05f, -128),
               tflite_test::constant("c", tflite::TensorType::INT8, {1}, {0.02f}, {40}),
               activation("t14", {1, 16, 16, 32}, 0.04f, -128)};
  const char* channels = "channels folded into a table of biases";
  const char* rows = "folded into each row's bias";
  m.ops = {binary(Kind::kAdd, 0, 1, 6, AF::NONE),   // per channel, the int8 clamp
           binary(Kind::kSub, 6, 2, 7, AF::NONE),   // a scalar, the int8 clamp
           binary(Kind::kAdd, 3, 7, 8, AF::RELU6),  // a row constant as input 1, clamped both sides
           binary(Kind::kSub, 1, 8, 9, AF::RELU),   // per channel as input 1, clamped
           binary(Kind::kAdd, 4, 5, 10, AF::NONE),  // 200 channels: blocks of the table
           binary(Kind::kMul, 0, 11, 12, AF::NONE),  // squeeze-and-excite: a sigmoid's [1,1,1,C] per channel
           binary(Kind::kMul, 12, 13, 14, AF::RELU6)}; // a constant scalar (its one value's form)
  // The bounds: docs/dsp-add-depthwise.md's measured figures (the tables' and rows' set-up included) and a margin.
  *layers = {{0, {channels, "microaot_add_s8_folded", 4.1}},
             {1, {rows, "microaot_add_s8_folded", 3.7}},
             {2, {rows, "microaot_add_s8_folded", 4.0}},
             {3, {channels, "microaot_add_s8_folded", 4.6}},
             {4, {channels, "microaot_add_s8_folded", 4.45}},  // 3,200 elements: the 200-entry table weighs
             {5, {"channels folded into a table of slopes", "microaot_mul_s8_folded", 4.47}},
             {6, {"value folded into each row's slope", "microaot_mul_s8_folded", 3.93}}};
  m.inputs = {0, 1, 2, 3, 4, 5, 11};
  m.outputs = {9, 10, 14};
  return m;
}

int64_t elements(const ModelSpec& m, int op) {
  int64_t n = 1;
  for (int32_t d : m.tensors[static_cast<size_t>(m.ops[static_cast<size_t>(op)].outputs[0])].shape) n *= d;
  return n;
}

TEST(BroadcastArithmeticM4, FoldedFormsRunBitExactOnTheirKernels) {
  MICROAOT_REQUIRE_QEMU();
  std::map<int, Layer> layers;
  const ModelSpec spec = broadcast_model(&layers);
  const std::string dir = make_temp_dir(), model = dir + "/model.tflite";
  const json r = bench_random(spec, dir, 61);
  ASSERT_TRUE(r.contains("per_op"));
  EXPECT_TRUE(r["outputs_bit_exact"].get<bool>());
  ASSERT_EQ(r["per_op"].size(), layers.size());
  for (const json& row : r["per_op"]) {
    const int op = row["op_index"].get<int>();
    const Layer& layer = layers.at(op);
    const double per_element = row["instructions"].get<double>() / static_cast<double>(elements(spec, op));
    EXPECT_EQ(row["kernel"], layer.kernel) << "op " << op;
    EXPECT_LE(per_element, layer.per_element) << "op " << op;
    std::cout << "op " << op << " " << row["op"].get<std::string>() << ": " << per_element
              << " instructions per element\n";
  }
  ASSERT_EQ(run_microaot({"compile", model, "--target", "cortex-m4", "-o", dir + "/lib"}), 0);
  const std::string info = read_text(dir + "/lib/network_info.txt");
  for (const auto& [op, layer] : layers) EXPECT_NE(info.find(layer.form), std::string::npos) << layer.form << "\n" << info;
  remove_dir(dir);
}

// The loops' edges on odd shapes, every layer an output (each compared with the host build): an odd number of
// eights (the loops' second entry), tails of 1 to 7, channels not a multiple of 4 (the table wraps), above the
// table (blocks), rows of odd length, and full operands of every length from 1 to 40.
TEST(BroadcastArithmeticM4, FoldedAndLeanFormsRunBitExactOnOddShapes) {
  MICROAOT_REQUIRE_QEMU();
  ModelSpec m;
  const auto layer = [&m](Kind kind, std::vector<int32_t> full, std::vector<int32_t> broadcast, bool vector_first,
                          AF act, int32_t out_zero_point) {
    const int32_t base = static_cast<int32_t>(m.tensors.size());
    const bool mul = kind == Kind::kMul;  // the scales of broadcast_model's layers, whose forms exist
    m.tensors.push_back(activation("f" + std::to_string(base), full, 0.05f, -3));
    m.tensors.push_back(activation("b" + std::to_string(base), broadcast, mul ? 1.0f / 256 : 0.04f, mul ? -128 : 5));
    m.tensors.push_back(activation("o" + std::to_string(base), full, mul ? 0.05f : 0.07f, out_zero_point));
    m.ops.push_back(vector_first ? binary(kind, base + 1, base, base + 2, act) : binary(kind, base, base + 1, base + 2, act));
    m.inputs.insert(m.inputs.end(), {base, base + 1});
    m.outputs.push_back(base + 2);
  };
  layer(Kind::kAdd, {1, 3, 5, 12}, {12}, false, AF::NONE, 2);          // a table of 240, 22 eights and a tail of 4
  layer(Kind::kSub, {1, 7, 20}, {20}, true, AF::RELU, -40);            // 17 eights (odd), clamped
  layer(Kind::kAdd, {1, 4, 6}, {6}, false, AF::RELU6, -100);           // 6 channels: the table wraps
  layer(Kind::kAdd, {1, 2, 3, 300}, {300}, false, AF::NONE, 0);        // blocks of 256 and 44 channels
  layer(Kind::kAdd, {1, 5, 63}, {1, 5, 1}, true, AF::RELU6, -100);     // rows of 63: 7 eights and 7
  layer(Kind::kSub, {1, 9, 3, 13}, {1}, false, AF::NONE, 5);           // one row of 351
  layer(Kind::kMul, {1, 3, 44}, {44}, false, AF::NONE, -128);          // a table of 88: 11 eights
  layer(Kind::kMul, {1, 5, 28}, {1, 1, 28}, true, AF::RELU6, -128);     // clamped pairs, 28 channels
  layer(Kind::kMul, {1, 3, 5, 7}, {1, 3, 1, 1}, false, AF::RELU6, -128); // clamped rows of 35
  for (int32_t n = 1; n <= 40; ++n) layer(Kind::kAdd, {n}, {n}, false, AF::NONE, 3);  // two full operands
  const std::string dir = make_temp_dir();
  const json r = bench_random(m, dir, 67);
  ASSERT_TRUE(r.contains("per_op"));
  EXPECT_TRUE(r["outputs_bit_exact"].get<bool>());
  for (const json& row : r["per_op"]) {
    const int op = row["op_index"].get<int>();
    if (op < 9) {
      EXPECT_NE(row["kernel"].get<std::string>().find("folded"), std::string::npos) << "op " << op;
    } else {
      EXPECT_EQ(row["kernel"], "microaot_add_s8_linear") << "op " << op;
    }
  }
  remove_dir(dir);
}

// Two full operands keep the lean add_s8_linear: a model of such ADDs links none of the folded forms' code and
// none of their per-channel table's kilobyte of stack (simple_add before the folded forms: a bound of 324 bytes),
// and runs within 5.42 instructions per element.
TEST(BroadcastArithmeticM4, FullOperandsKeepTheLeanKernel) {
  MICROAOT_REQUIRE_QEMU();
  const std::string dir = shared_dir() + "/models/simple_add_int8";
  std::string errors, output;
  ASSERT_EQ(run_microaot_capture({"bench", dir + "/model.tflite", "--target", "cortex-m4", "--json", "--input",
                                  dir + "/vectors/0.input0.bin", "--input", dir + "/vectors/0.input1.bin"},
                                 errors, &output),
            0)
      << errors;
  const json r = json::parse(output);
  EXPECT_TRUE(r["outputs_bit_exact"].get<bool>());
  for (const json& row : r["per_op"]) {
    EXPECT_EQ(row["kernel"], "microaot_add_s8_linear");
    // 16,384 elements at 5.38 each: sixteen a pass, the outputs packed by word (docs/dsp-add-depthwise.md)
    EXPECT_LE(row["instructions"].get<double>() / 16384, 5.42);
  }
  ASSERT_TRUE(r["stack_bound_bytes"].is_number());
  EXPECT_LT(r["stack_bound_bytes"].get<int64_t>(), 1024) << "the folded forms' table is linked";
}

// Two full operands with a clamp inside the int8 range, and MUL, pack their outputs by word (add_s8_linear's
// clamped run, mul_s8's packed run): bit-exact with the host build on layers of 8,192 elements (an upper clamp,
// a lower one, both; MUL with the int8 clamp and with RELU6) within the instructions per element measured for them
// (before: 9.27 for every clamped ADD and SUB, 9.27 for MUL), and on every length from 1 to 40 (the loops' odd
// eights and tails, each layer an output).
TEST(BroadcastArithmeticM4, FullOperandsPackClampedSumsAndProducts) {
  MICROAOT_REQUIRE_QEMU();
  ModelSpec m;
  std::vector<double> bounds;  // instructions per element of the first layers
  // Inputs of the shared SUB case's scales (../shared/ops/SUB/int8_1x16x16x32_same_shape_relu6), or of
  // broadcast_model's per-channel SUB: scales for which a linear form exists.
  const auto layer = [&m](Kind kind, std::vector<int32_t> shape, AF act, bool shared_scales, float out_scale,
                          int32_t out_zero_point) {
    const int32_t base = static_cast<int32_t>(m.tensors.size());
    const std::string id = std::to_string(base);
    m.tensors.push_back(activation("a" + id, shape, shared_scales ? 0.0385f : 0.04f, shared_scales ? -8 : 5));
    m.tensors.push_back(activation("b" + id, shape, shared_scales ? 0.0441f : 0.05f, shared_scales ? -14 : -100));
    m.tensors.push_back(activation("o" + id, shape, out_scale, out_zero_point));
    m.ops.push_back(binary(kind, base, base + 1, base + 2, act));
    m.inputs.insert(m.inputs.end(), {base, base + 1});
    m.outputs.push_back(base + 2);
  };
  const std::vector<int32_t> big = {1, 16, 16, 32};
  layer(Kind::kSub, big, AF::RELU6, true, 0.0247f, -128), bounds.push_back(6.0);  // [-128, 115]: 5.96
  layer(Kind::kAdd, big, AF::RELU, false, 0.07f, -20), bounds.push_back(6.0);     // [-20, 127]: 5.96
  layer(Kind::kAdd, big, AF::RELU6, false, 0.07f, -60), bounds.push_back(6.0);    // [-60, 26]: 5.96
  layer(Kind::kMul, big, AF::NONE, true, 0.25f, 5), bounds.push_back(8.2);        // 8.16
  layer(Kind::kMul, big, AF::RELU6, true, 0.1f, -100), bounds.push_back(8.75);    // [-100, -40]: 8.72
  for (int32_t n = 1; n <= 40; ++n) {
    layer(n % 2 ? Kind::kSub : Kind::kAdd, {n}, AF::RELU6, false, 0.07f, -60);
    layer(Kind::kMul, {n}, n % 2 ? AF::RELU6 : AF::NONE, true, n % 2 ? 0.1f : 0.25f, n % 2 ? -100 : 5);
  }
  const std::string dir = make_temp_dir();
  const json r = bench_random(m, dir, 73);
  ASSERT_TRUE(r.contains("per_op"));
  EXPECT_TRUE(r["outputs_bit_exact"].get<bool>());
  for (const json& row : r["per_op"]) {
    const size_t op = row["op_index"].get<size_t>();
    const bool mul = m.ops[op].code == 18;
    EXPECT_EQ(row["kernel"], mul ? "microaot_mul_s8" : "microaot_add_s8_linear") << "op " << op;
    if (op >= bounds.size()) continue;
    const double per_element = row["instructions"].get<double>() / (16 * 16 * 32);
    EXPECT_LE(per_element, bounds[op]) << "op " << op;
    std::cout << "op " << op << " " << row["op"].get<std::string>() << ": " << per_element
              << " instructions per element\n";
  }
  remove_dir(dir);
}

// int8 PRELU (TFLite code 54) with its identity side from a compile-time table: a constant per-channel alpha of
// both signs and an alpha that is an input, bit-exact with the host build: 27.4 and 21.5 instructions an element
// (about half the inputs below the zero point, which keep the arithmetic) where prelu_s8 (--optimize size) takes 55.
TEST(BroadcastArithmeticM4, PreluReadsItsIdentitySideFromATable) {
  MICROAOT_REQUIRE_QEMU();
  ModelSpec m;
  std::vector<uint8_t> slopes(32);
  for (size_t c = 0; c < slopes.size(); ++c) slopes[c] = static_cast<uint8_t>(c * 37 + 5);
  m.tensors = {activation("x", {1, 16, 16, 32}, 0.05f, -3),
               tflite_test::constant("alpha", tflite::TensorType::INT8, {1, 1, 32}, {0.01f}, slopes),
               activation("y", {1, 16, 16, 32}, 0.04f, -30), activation("a", {32}, 0.02f, 9),
               activation("z", {1, 16, 16, 32}, 0.06f, 20)};
  m.ops = {tflite_test::op(54, 1, {0, 1}, {2}), tflite_test::op(54, 1, {2, 3}, {4})};
  m.inputs = {0, 3};
  m.outputs = {4};
  const std::string dir = make_temp_dir();
  std::vector<double> generic;  // --optimize size keeps prelu_s8
  for (const char* level : {"size", "speed"}) {
    const json r = bench_random(m, dir, 71, {"--optimize", level});
    ASSERT_TRUE(r.contains("per_op"));
    EXPECT_TRUE(r["outputs_bit_exact"].get<bool>()) << level;
    ASSERT_EQ(r["per_op"].size(), 2u);
    for (const json& row : r["per_op"]) {
      const double per_element = row["instructions"].get<double>() / (16 * 16 * 32);
      std::cout << level << " PRELU: " << per_element << " instructions per element\n";
      if (generic.size() < 2) {
        EXPECT_EQ(row["kernel"], "microaot_prelu_s8");
        generic.push_back(per_element);
        continue;
      }
      EXPECT_EQ(row["kernel"], "microaot_prelu_s8_table");
      EXPECT_LE(per_element, 28.0);
      EXPECT_LT(per_element, generic[static_cast<size_t>(row["op_index"].get<int>())] / 2);
    }
  }
  remove_dir(dir);
}

// The int8 cases of ../shared/ops on the M4 (the folded forms, the packed runs of full operands), all four vectors
// against the TFLM goldens.
TEST(BroadcastArithmeticM4, SharedInt8CasesMatchTheirGoldens) {
  MICROAOT_REQUIRE_QEMU();
  for (const char* op : {"ADD", "SUB", "MUL"}) {
    for (const char* name : {"int8_1x4x4x6_bcast_c_relu", "int8_1x5x5x4_const_operand", "int8_2x3x5_bcast_mid_relu6",
                             "int8_1x16x16x32_same_shape_relu6", "int8_1x8x8x3_same_shape"}) {
      const std::string dir = shared_dir() + "/ops/" + op + "/" + name;
      std::ifstream in(dir + "/golden.json");
      ASSERT_TRUE(in) << dir;
      const json golden = json::parse(in);
      const std::string out = make_temp_dir();
      std::vector<std::string> args = {"run", dir + "/model.tflite", "--target", "cortex-m4", "--batch", "--output-dir", out};
      for (const json& vector : golden["vectors"]) {
        for (const json& input : vector["inputs"]) args.insert(args.end(), {"--input", dir + "/" + input.get<std::string>()});
      }
      ASSERT_EQ(run_microaot(args), 0) << dir;
      for (size_t k = 0; k < golden["vectors"].size(); ++k) {
        const std::vector<uint8_t> got = read_file(out + "/" + std::to_string(k) + "/output0.bin");
        const std::vector<uint8_t> want = read_file(dir + "/" + golden["vectors"][k]["outputs"][0].get<std::string>());
        EXPECT_EQ(compare_tensor("int8", got, want), "") << op << "/" << name << " vector " << k;
      }
      remove_dir(out);
    }
  }
}

}  // namespace
}  // namespace microaot::e2e
