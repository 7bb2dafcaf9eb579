// Compressed weights (issue 32) on the emulated Cortex-M4: KWS clustered to 16 values per channel runs with its
// weights palettised (--compress-weights lossless: the DSP palette kernel on its pointwise layers) bit-exact with the
// same clustered model uncompressed at balanced (the packed DSP kernels), on a real input vector; those pointwise
// layers cost at most 1.15x the packed kernel's instructions.
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>
#include <string>

#include "e2e_util.h"

namespace microaot::e2e {
namespace {

using nlohmann::json;

// compress "": the setting's default.
std::vector<uint8_t> run_on_m4(const std::string& dir, const std::string& compress) {
  const std::string model = shared_dir() + "/models/kws_dscnn_int8";
  const std::string out = dir + "/" + (compress.empty() ? "default" : compress);
  std::vector<std::string> args = {"run", model + "/model.tflite", "--target", "cortex-m4", "--optimize", "balanced",
                                   "--cluster-weights", "16", "--input", model + "/vectors/0.input0.bin",
                                   "--output-dir", out};
  if (!compress.empty()) args.insert(args.end(), {"--compress-weights", compress});
  std::string errors;
  EXPECT_EQ(run_microaot_capture(args, errors), 0) << errors;
  return read_file(out + "/output0.bin");
}

json bench_kws(const std::vector<std::string>& extra) {
  std::vector<std::string> args = {"bench", shared_dir() + "/models/kws_dscnn_int8/model.tflite", "--optimize",
                                   "balanced", "--cluster-weights", "16", "--tiling", "off", "--json"};
  args.insert(args.end(), extra.begin(), extra.end());
  std::string errors, output;
  EXPECT_EQ(run_microaot_capture(args, errors, &output), 0) << errors;
  return json::parse(output);
}

TEST(CompressedWeightsM4, ClusteredKwsRunsBitExactWithItsUncompressedSelf) {
  MICROAOT_REQUIRE_QEMU();
  if (!shared_available()) GTEST_SKIP() << "../shared is missing";
  const std::string dir = make_temp_dir();
  const std::vector<uint8_t> plain = run_on_m4(dir, "off");
  ASSERT_FALSE(plain.empty());
  EXPECT_EQ(run_on_m4(dir, "lossless"), plain);
  EXPECT_EQ(run_on_m4(dir, ""), plain);
  remove_dir(dir);
}

// Per layer (bench per_op): with --compress-weights lossless each of KWS's four pointwise layers takes the DSP
// palette kernel, at most 1.15x the packed kernel's instructions on the same layer. Balanced's default leaves
// them their int8 weights: each could update its input in place, which the palette kernel cannot (RAM first).
TEST(CompressedWeightsM4, PointwisePalettesCostAtMostFifteenPercentPerLayer) {
  MICROAOT_REQUIRE_QEMU();
  if (!shared_available()) GTEST_SKIP() << "../shared is missing";
  const json palette = bench_kws({"--compress-weights", "lossless"}), packed = bench_kws({"--compress-weights", "off"});
  const json &a = palette["per_op"], &b = packed["per_op"];
  ASSERT_EQ(a.size(), b.size());
  int palettised = 0;
  for (size_t i = 0; i < a.size(); ++i) {
    if (a[i]["kernel"] != "microaot_conv_2d_s8_packed_palette") continue;
    ++palettised;
    EXPECT_LE(a[i]["instructions"].get<double>() / b[i]["instructions"].get<double>(), 1.15) << "step " << i;
  }
  EXPECT_EQ(palettised, 4);
  const json by_default = bench_kws({});
  EXPECT_EQ(by_default["ram_bytes"], packed["ram_bytes"]);
  EXPECT_EQ(by_default["weights_bytes"], packed["weights_bytes"]);
}

}  // namespace
}  // namespace microaot::e2e
