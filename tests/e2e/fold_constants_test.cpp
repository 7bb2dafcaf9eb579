// fold_constants end to end: a float FULLY_CONNECTED whose weights are TRANSPOSE(DEQUANTIZE(int8 constant))
// compiles (refused before: the weights were not constant), the IR dump shows both ops folded away, and the
// generated code, built and run on the host, gives the products of the dequantized weights. One C build.
#include <gtest/gtest.h>

#include <cstring>
#include <fstream>
#include <string>
#include <utility>
#include <vector>

#include "e2e_util.h"
#include "frontend/tflite_test_builder.h"

namespace microaot::e2e {
namespace {

using tflite_test::bytes_of;

constexpr int kDequantize = 6, kTranspose = 39, kFullyConnected = 9;

tflite_test::TensorSpec float_tensor(const std::string& name, std::vector<int32_t> shape) {
  tflite_test::TensorSpec t;
  t.name = name;
  t.type = tflite::TensorType::FLOAT32;
  t.shape = std::move(shape);
  return t;
}

// in [1,4] float -> FULLY_CONNECTED(weights = TRANSPOSE(DEQUANTIZE(q [4,3], scale 0.25)), no bias) -> out [1,3].
std::vector<uint8_t> dequantized_weights_model(const std::vector<int8_t>& q) {
  tflite_test::ModelSpec m;
  m.tensors = {float_tensor("in", {1, 4}),
               tflite_test::constant("weights_q", tflite::TensorType::INT8, {4, 3}, {0.25f}, bytes_of<int8_t>(q)),
               float_tensor("weights_f32", {4, 3}),
               tflite_test::constant("perm", tflite::TensorType::INT32, {2}, {}, bytes_of<int32_t>({1, 0})),
               float_tensor("weights", {3, 4}), float_tensor("out", {1, 3})};
  m.ops = {tflite_test::op(kDequantize, 2, {1}, {2}), tflite_test::op(kTranspose, 1, {2, 3}, {4}),
           tflite_test::op(kFullyConnected, 1, {0, 4}, {5})};
  m.ops[2].options_type = tflite::BuiltinOptions::FullyConnectedOptions;
  m.ops[2].options = [](flatbuffers::FlatBufferBuilder& fbb) { return tflite::CreateFullyConnectedOptions(fbb).Union(); };
  m.inputs = {0};
  m.outputs = {5};
  return tflite_test::build_model(m);
}

void write_bytes(const std::string& path, const std::vector<uint8_t>& bytes) {
  std::ofstream(path, std::ios::binary).write(reinterpret_cast<const char*>(bytes.data()),
                                              static_cast<std::streamsize>(bytes.size()));
}

TEST(FoldConstantsEndToEnd, DequantizedTransposedWeightsRunAsConstants) {
  const std::string dir = make_temp_dir();
  const std::vector<int8_t> q = {-4, 8, 1, 2, -2, 0, 12, 4, -1, 127, -128, 6};  // [4,3]
  write_bytes(dir + "/model.tflite", dequantized_weights_model(q));
  const std::vector<float> x = {1.0f, -2.0f, 0.5f, 3.0f};
  write_bytes(dir + "/in.bin", bytes_of(x));

  std::string errors;
  ASSERT_EQ(run_microaot_capture({"compile", dir + "/model.tflite", "-o", dir + "/lib", "--dump-ir-after",
                                  "fold_constants"}, errors), 0) << errors;
  const std::string dump = errors.substr(errors.find("IR after fold_constants"));
  EXPECT_EQ(dump.find("DEQUANTIZE"), std::string::npos) << dump;
  EXPECT_EQ(dump.find("TRANSPOSE"), std::string::npos) << dump;
  EXPECT_NE(dump.find("FULLY_CONNECTED"), std::string::npos) << dump;

  ASSERT_EQ(run_microaot_capture({"run", dir + "/model.tflite", "--input", dir + "/in.bin", "--output-dir",
                                  dir + "/out", "--runtime-lib", runtime_lib()}, errors), 0) << errors;
  // out[o] = sum_i x[i] * 0.25 * q[i][o]: every term and sum is exact in float.
  std::vector<float> want(3, 0.0f);
  for (size_t o = 0; o < 3; ++o) {
    for (size_t i = 0; i < 4; ++i) want[o] += x[i] * 0.25f * static_cast<float>(q[i * 3 + o]);
  }
  EXPECT_EQ(read_file(dir + "/out/output0.bin"), bytes_of(want));
  remove_dir(dir);
}

}  // namespace
}  // namespace microaot::e2e
