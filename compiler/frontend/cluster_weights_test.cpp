#include "frontend/cluster_weights.h"

#include <gtest/gtest.h>

#include <random>
#include <set>

#include "frontend/model_reader.h"
#include "frontend/shared_data_test_util.h"
#include "ops/palette_weights.h"
#include "support/diagnostics.h"

namespace microaot {
namespace {

size_t distinct(const std::vector<int8_t>& v) { return std::set<int8_t>(v.begin(), v.end()).size(); }

TEST(ClusterWeights, AChannelTakesAtMostKValuesEachItsNearestCentroid) {
  std::mt19937 rng(11);
  std::normal_distribution<double> normal(0, 40);
  std::vector<int8_t> values;
  for (int i = 0; i < 500; ++i) values.push_back(static_cast<int8_t>(std::max(-127.0, std::min(127.0, normal(rng)))));
  for (int k : {1, 2, 3, 16, 100}) {
    const std::vector<int8_t> clustered = cluster_channel(values, k);
    ASSERT_EQ(clustered.size(), values.size());
    EXPECT_LE(distinct(clustered), static_cast<size_t>(k)) << k;
    const std::set<int8_t> centroids(clustered.begin(), clustered.end());
    for (size_t i = 0; i < values.size(); ++i) {  // no centroid nearer than the one taken
      for (int8_t c : centroids) EXPECT_LE(std::abs(values[i] - clustered[i]), std::abs(values[i] - c)) << k;
    }
    EXPECT_EQ(cluster_channel(values, k), clustered) << "deterministic";
  }
  EXPECT_EQ(cluster_channel({4, -3, 4, 9}, 3), (std::vector<int8_t>{4, -3, 4, 9}));  // already within k
}

// Values heaped on zero (most of a tensor's weights): evenly spaced ranks all land on 0, yet k values remain
// (the farthest present values are added), and the loss stays small.
TEST(ClusterWeights, AHeapOfZerosStillTakesKValues) {
  std::vector<int8_t> values(900, 0);
  for (int i = 0; i < 100; ++i) values.push_back(static_cast<int8_t>(2 * i - 100));
  const std::vector<int8_t> clustered = cluster_channel(values, 16);
  EXPECT_EQ(distinct(clustered), 16u);
  for (size_t i = 0; i < values.size(); ++i) EXPECT_LE(std::abs(values[i] - clustered[i]), 10) << int{values[i]};
}

TEST(ClusterWeights, MoreValuesLoseLess) {
  std::mt19937 rng(12);
  std::uniform_int_distribution<int> u(-127, 127);
  std::vector<int8_t> values;
  for (int i = 0; i < 300; ++i) values.push_back(static_cast<int8_t>(u(rng)));
  auto error = [&](int k) {
    const std::vector<int8_t> c = cluster_channel(values, k);
    int64_t e = 0;
    for (size_t i = 0; i < c.size(); ++i) e += (values[i] - c[i]) * (values[i] - c[i]);
    return e;
  };
  EXPECT_GT(error(4), error(16));
  EXPECT_GT(error(16), error(64));
}

// KWS: every CONV_2D and FULLY_CONNECTED tensor at most 16 values per channel afterwards, the file otherwise the
// same bytes, and the rewritten file reads back with those weights.
TEST(ClusterWeights, RewritesARealModelsWeightsInItsFile) {
  const auto path = shared_data::kShared / "models" / "kws_dscnn_int8" / "model.tflite";
  if (!shared_data::shared_available(path)) GTEST_SKIP();
  const std::vector<uint8_t> bytes = shared_data::read_bytes(path);
  const ClusteredModel clustered = cluster_model_weights(bytes, 16);
  ASSERT_EQ(clustered.tflite.size(), bytes.size());
  EXPECT_NE(clustered.tflite, bytes);
  ASSERT_EQ(clustered.layers.size(), 10u);  // 5 CONV_2D, 4 DEPTHWISE_CONV_2D, 1 FULLY_CONNECTED
  int per_tensor = 0;
  for (const ClusteredWeights& l : clustered.layers) {
    EXPECT_LE(l.most_values_after, 16) << l.tensor;
    // Rows of at most 128 weights (the 3x3 depthwise filters, the 64-input pointwise convolutions and the FC)
    // are clustered as a whole: a 16-byte table per channel would be an eighth of their int8 bytes or more.
    per_tensor += l.per_tensor ? 1 : 0;
    if (l.most_values_before > 16) {
      EXPECT_GT(l.sqnr_db, 15.0) << l.tensor;
    }
  }
  const Graph graph = read_model(clustered.tflite);
  for (const Op& op : graph.ops) {
    if (op.kind != OpKind::Conv2D && op.kind != OpKind::FullyConnected) continue;
    const Tensor& w = graph.tensor(op.inputs[1]);
    const auto channels = w.shape[0];
    EXPECT_LE(palette_bits(constant_values<int8_t>(w), channels, static_cast<int32_t>(w.num_elements() / channels)), 4)
        << w.name;
  }
  EXPECT_EQ(per_tensor, 10);  // every row here is 9 (depthwise), 40 (the 10x4 first CONV_2D) or 64 weights
  EXPECT_NE(clustered_weights_text(clustered, 16).find("weights changed by --cluster-weights 16"), std::string::npos);
  EXPECT_NE(clustered_weights_text(clustered, 16).find("clustered as a whole"), std::string::npos);
}

// The rule: per tensor when per-channel tables of 2^ceil(log2 k) bytes are at least an eighth of the int8 bytes.
TEST(ClusterWeights, PerTensorWhereTablesPerChannelDoNotPay) {
  EXPECT_TRUE(cluster_per_tensor(64, 9, 16));     // 3x3 depthwise: 16 B of table for 9 weights
  EXPECT_TRUE(cluster_per_tensor(128, 128, 16));  // 16 B = 128 / 8
  EXPECT_FALSE(cluster_per_tensor(128, 129, 16));
  EXPECT_FALSE(cluster_per_tensor(16, 144, 16));  // a 3x3x16 filter keeps its own table
  EXPECT_TRUE(cluster_per_tensor(8, 32, 3));      // k = 3 takes 4-entry tables: 32 B / 8
  EXPECT_FALSE(cluster_per_tensor(8, 33, 3));
}

TEST(ClusterWeights, RefusesKOutOfRangeAndForeignModels) {
  EXPECT_THROW(cluster_model_weights({}, 0), CompileError);
  EXPECT_THROW(cluster_model_weights({}, 129), CompileError);
  EXPECT_THROW(cluster_model_weights(std::vector<uint8_t>(64, 0), 16), CompileError);
}

}  // namespace
}  // namespace microaot
