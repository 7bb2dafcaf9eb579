// Compressed weights (issue 32) on the emulated Cortex-M4: KWS clustered to 16 values per channel runs with its
// weights palettised (--compress-weights lossless) bit-exact with the same clustered model uncompressed at
// balanced (the packed DSP kernels), on a real input vector.
#include <gtest/gtest.h>

#include <string>

#include "e2e_util.h"

namespace microaot::e2e {
namespace {

std::vector<uint8_t> run_on_m4(const std::string& dir, const std::string& compress) {
  const std::string model = shared_dir() + "/models/kws_dscnn_int8";
  std::string errors;
  EXPECT_EQ(run_microaot_capture({"run", model + "/model.tflite", "--target", "cortex-m4", "--optimize", "balanced",
                                  "--cluster-weights", "16", "--compress-weights", compress, "--input",
                                  model + "/vectors/0.input0.bin", "--output-dir", dir + "/" + compress},
                                 errors),
            0)
      << errors;
  return read_file(dir + "/" + compress + "/output0.bin");
}

TEST(CompressedWeightsM4, ClusteredKwsRunsBitExactWithItsUncompressedSelf) {
  MICROAOT_REQUIRE_QEMU();
  if (!shared_available()) GTEST_SKIP() << "../shared is missing";
  const std::string dir = make_temp_dir();
  const std::vector<uint8_t> plain = run_on_m4(dir, "off");
  ASSERT_FALSE(plain.empty());
  EXPECT_EQ(run_on_m4(dir, "lossless"), plain);
  remove_dir(dir);
}

}  // namespace
}  // namespace microaot::e2e
