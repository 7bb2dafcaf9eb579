// `microaot bench` of a generated model on random inputs, for the Cortex-M tests (label qemu) of small models
// built with frontend/tflite_test_builder.h: bench runs it on the emulated board and compares its outputs with
// the host build's (outputs_bit_exact), and reports each layer's kernel and instructions (per_op).
#pragma once

#include <gtest/gtest.h>

#include <cstdint>
#include <fstream>
#include <nlohmann/json.hpp>
#include <random>
#include <string>
#include <vector>

#include "e2e_util.h"
#include "frontend/tflite_test_builder.h"

namespace microaot::e2e {

inline void write_bytes(const std::string& path, const std::vector<uint8_t>& bytes) {
  std::ofstream(path, std::ios::binary).write(reinterpret_cast<const char*>(bytes.data()),
                                               static_cast<std::streamsize>(bytes.size()));
}

// Writes `spec` to DIR/model.tflite and benches it on `target` with `options` (e.g. --optimize balanced), every
// input random bytes from `seed`; returns bench's report (empty when bench failed, which the test is told).
inline nlohmann::json bench_random(const tflite_test::ModelSpec& spec, const std::string& dir, uint32_t seed,
                                   const std::vector<std::string>& options = {},
                                   const std::string& target = "cortex-m4") {
  const std::string model = dir + "/model.tflite";
  write_bytes(model, tflite_test::build_model(spec));
  std::vector<std::string> args = {"bench", model, "--target", target, "--json"};
  args.insert(args.end(), options.begin(), options.end());
  std::mt19937 rng(seed);
  for (size_t k = 0; k < spec.inputs.size(); ++k) {
    const tflite_test::TensorSpec& input = spec.tensors[static_cast<size_t>(spec.inputs[k])];
    int64_t n = input.type == tflite::TensorType::INT16 ? 2 : 1;  // bytes per element (int8 or int16 inputs)
    for (int32_t d : input.shape) n *= d;
    std::vector<uint8_t> bytes(static_cast<size_t>(n));
    for (uint8_t& b : bytes) b = static_cast<uint8_t>(rng());
    const std::string path = dir + "/in" + std::to_string(k) + ".bin";
    write_bytes(path, bytes);
    args.insert(args.end(), {"--input", path});
  }
  std::string errors, output;
  EXPECT_EQ(run_microaot_capture(args, errors, &output), 0) << errors;
  return output.empty() ? nlohmann::json::object() : nlohmann::json::parse(output);
}

}  // namespace microaot::e2e
