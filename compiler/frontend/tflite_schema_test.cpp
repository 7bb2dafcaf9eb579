// Tests of tflite_schema.fbs against real files: in every shared model each operator's options are a
// member of the options unions and verify as that table, and option fields read as the op suite's
// golden params say (a table or field at a wrong position reads as another one, or as garbage).
#include <gtest/gtest.h>

#include <algorithm>
#include <cctype>
#include <cstring>
#include <nlohmann/json.hpp>
#include <set>
#include <string>
#include <utility>
#include <vector>

#include "frontend/builtin_names.h"
#include "frontend/shared_data_test_util.h"
#include "frontend/tflite_test_ops.h"
#include "tflite_schema_generated.h"

namespace microaot {
namespace {

using namespace shared_data;
using nlohmann::json;
using tflite::BuiltinOptions;
using tflite::BuiltinOptions2;

int builtin_code(const tflite::Model& model, const tflite::Operator& op) {
  const tflite::OperatorCode& code = *model.operator_codes()->Get(op.opcode_index());
  return std::max<int>(code.deprecated_builtin_code(), code.builtin_code());
}

// The options table listed in op_list.def for `code`, or nullptr when the code is not listed.
const BuiltinOptions* listed_table(int code) {
  for (const tflite_test::ListedOp& listed : tflite_test::kListedOps) {
    if (listed.code == code) return &listed.options_type;
  }
  return nullptr;
}

// The options of `op` are members of the unions, verify as those tables, and are the table op_list.def
// lists for its code (when listed; an empty table may be left out).
void expect_options_known(const tflite::Model& model, const tflite::Operator& op, flatbuffers::Verifier& verifier) {
  const BuiltinOptions type = op.builtin_options_type();
  const BuiltinOptions2 type2 = op.builtin_options_2_type();
  EXPECT_LE(type, BuiltinOptions::MAX) << "unknown BuiltinOptions member " << static_cast<int>(type);
  EXPECT_LE(type2, BuiltinOptions2::MAX) << "unknown BuiltinOptions2 member " << static_cast<int>(type2);
  EXPECT_TRUE(tflite::VerifyBuiltinOptions(verifier, op.builtin_options(), type)) << EnumNameBuiltinOptions(type);
  EXPECT_TRUE(tflite::VerifyBuiltinOptions2(verifier, op.builtin_options_2(), type2)) << EnumNameBuiltinOptions2(type2);
  EXPECT_TRUE(type == BuiltinOptions::NONE || op.builtin_options() != nullptr) << EnumNameBuiltinOptions(type);
  EXPECT_TRUE(type2 == BuiltinOptions2::NONE || op.builtin_options_2() != nullptr) << EnumNameBuiltinOptions2(type2);
  const BuiltinOptions* listed = listed_table(builtin_code(model, op));
  EXPECT_TRUE(listed == nullptr || type == BuiltinOptions::NONE || type == *listed)
      << EnumNameBuiltinOptions(type) << ", but op_list.def lists " << EnumNameBuiltinOptions(*listed);
}

TEST(SchemaOnSharedModels, EveryOperatorsOptionsAreAKnownMemberAndVerify) {
  if (!shared_available(kShared)) GTEST_SKIP() << kShared << " not present";
  const std::vector<fs::path> files = all_model_files();
  ASSERT_FALSE(files.empty());
  for (const fs::path& file : files) {
    SCOPED_TRACE(file.string());
    const std::vector<uint8_t> bytes = read_bytes(file);
    flatbuffers::Verifier verifier(bytes.data(), bytes.size());
    ASSERT_TRUE(tflite::VerifyModelBuffer(verifier));  // every options table the schema knows, too
    const tflite::Model& model = *tflite::GetModel(bytes.data());
    for (uint32_t s = 0; s < model.subgraphs()->size(); ++s) {
      const auto* ops = model.subgraphs()->Get(s)->operators();
      for (uint32_t i = 0; ops != nullptr && i < ops->size(); ++i) {
        SCOPED_TRACE("subgraph " + std::to_string(s) + " op " + std::to_string(i));
        expect_options_known(model, *ops->Get(i), verifier);
      }
    }
  }
}

// --- Option fields against the op suite's params ---

std::string lower(std::string text) {
  std::transform(text.begin(), text.end(), text.begin(), [](unsigned char c) { return std::tolower(c); });
  return text;
}
json name(tflite::ActivationFunctionType v) { return tflite::EnumNameActivationFunctionType(v); }
json name(tflite::Padding v) { return tflite::EnumNamePadding(v); }
json name(tflite::MirrorPadMode v) { return tflite::EnumNameMirrorPadMode(v); }
json name(tflite::TensorType v) { return lower(tflite::EnumNameTensorType(v)); }  // the suite writes "int32"
json ints(const flatbuffers::Vector<int32_t>* v) {
  return v == nullptr ? json::array() : json(std::vector<int32_t>(v->begin(), v->end()));
}

using ReadField = json (*)(const tflite::Operator&);

// One option field of one operator, compared with params[param] of every case of that operator.
struct FieldCheck {
  const char* op;
  const char* param;
  BuiltinOptions table;
  ReadField read;
};

#define FIELD(OP, PARAM, TABLE, EXPR)                                   \
  FieldCheck {                                                          \
    OP, PARAM, BuiltinOptions::TABLE, [](const tflite::Operator& op) { \
      const auto& o = *op.builtin_options_as<tflite::TABLE>();          \
      (void)o;                                                          \
      return json(EXPR);                                                \
    }                                                                   \
  }

const FieldCheck kFieldChecks[] = {
    FIELD("ADD", "fused_activation", AddOptions, name(o.fused_activation_function())),
    FIELD("SUB", "fused_activation", SubOptions, name(o.fused_activation_function())),
    FIELD("MUL", "fused_activation", MulOptions, name(o.fused_activation_function())),
    FIELD("DIV", "fused_activation", DivOptions, name(o.fused_activation_function())),
    FIELD("CONCATENATION", "axis", ConcatenationOptions, o.axis()),
    FIELD("CONCATENATION", "fused_activation", ConcatenationOptions, name(o.fused_activation_function())),
    FIELD("STRIDED_SLICE", "begin_mask", StridedSliceOptions, o.begin_mask()),
    FIELD("STRIDED_SLICE", "end_mask", StridedSliceOptions, o.end_mask()),
    FIELD("STRIDED_SLICE", "shrink_axis_mask", StridedSliceOptions, o.shrink_axis_mask()),
    FIELD("MEAN", "keep_dims", ReducerOptions, o.keep_dims()),
    FIELD("SUM", "keep_dims", ReducerOptions, o.keep_dims()),
    FIELD("REDUCE_MAX", "keep_dims", ReducerOptions, o.keep_dims()),
    FIELD("REDUCE_MIN", "keep_dims", ReducerOptions, o.keep_dims()),
    FIELD("SQUEEZE", "squeeze_dims", SqueezeOptions, ints(o.squeeze_dims())),
    FIELD("RESIZE_BILINEAR", "align_corners", ResizeBilinearOptions, o.align_corners()),
    FIELD("RESIZE_BILINEAR", "half_pixel_centers", ResizeBilinearOptions, o.half_pixel_centers()),
    FIELD("RESIZE_NEAREST_NEIGHBOR", "align_corners", ResizeNearestNeighborOptions, o.align_corners()),
    FIELD("RESIZE_NEAREST_NEIGHBOR", "half_pixel_centers", ResizeNearestNeighborOptions, o.half_pixel_centers()),
    FIELD("PACK", "axis", PackOptions, o.axis()),
    FIELD("PACK", "values_count", PackOptions, o.values_count()),
    FIELD("UNPACK", "axis", UnpackOptions, o.axis()),
    FIELD("UNPACK", "num", UnpackOptions, o.num()),
    FIELD("GATHER", "axis", GatherOptions, o.axis()),
    FIELD("SPLIT", "num_splits", SplitOptions, o.num_splits()),
    FIELD("DEPTH_TO_SPACE", "block_size", DepthToSpaceOptions, o.block_size()),
    FIELD("SPACE_TO_DEPTH", "block_size", SpaceToDepthOptions, o.block_size()),
    FIELD("LEAKY_RELU", "alpha", LeakyReluOptions, o.alpha()),
    FIELD("MIRROR_PAD", "mode", MirrorPadOptions, name(o.mode())),
    FIELD("ARG_MAX", "output_type", ArgMaxOptions, name(o.output_type())),
    FIELD("ARG_MIN", "output_type", ArgMinOptions, name(o.output_type())),
    FIELD("SHAPE", "out_type", ShapeOptions, name(o.out_type())),
    FIELD("CUMSUM", "exclusive", CumsumOptions, o.exclusive()),
    FIELD("CUMSUM", "reverse", CumsumOptions, o.reverse()),
    FIELD("BATCH_MATMUL", "adj_x", BatchMatMulOptions, o.adj_x()),
    FIELD("BATCH_MATMUL", "adj_y", BatchMatMulOptions, o.adj_y()),
    FIELD("TRANSPOSE_CONV", "padding", TransposeConvOptions, name(o.padding())),
    FIELD("TRANSPOSE_CONV", "stride_hw", TransposeConvOptions, json::array({o.stride_h(), o.stride_w()})),
    FIELD("TRANSPOSE_CONV", "fused_activation", TransposeConvOptions, name(o.fused_activation_function())),
    FIELD("L2_POOL_2D", "filter_hw", Pool2DOptions, json::array({o.filter_height(), o.filter_width()})),
    FIELD("L2_POOL_2D", "stride_hw", Pool2DOptions, json::array({o.stride_h(), o.stride_w()})),
    FIELD("L2_POOL_2D", "padding", Pool2DOptions, name(o.padding())),
    FIELD("CONV_2D", "dilation_hw", Conv2DOptions, json::array({o.dilation_h_factor(), o.dilation_w_factor()})),
    FIELD("SOFTMAX", "beta", SoftmaxOptions, o.beta()),
    FIELD("FULLY_CONNECTED", "keep_num_dims", FullyConnectedOptions, o.keep_num_dims()),
    // A table without fields: only its position in the union is checked. (PAD, TRANSPOSE and most other
    // operators with an empty table are written without one.)
    FIELD("LOG_SOFTMAX", nullptr, LogSoftmaxOptions, nullptr),
};
#undef FIELD

// Floats in golden.json are the decimal the generator wrote (0.2); the table holds the nearest float.
bool same_value(const json& got, const json& want) {
  if (want.is_number_float()) return got.is_number() && got.get<float>() == want.get<float>();
  return got == want;
}

TEST(SchemaOnOpSuite, OptionFieldsMatchTheCaseParams) {
  const fs::path dir = kShared / "ops";
  if (!shared_available(dir)) GTEST_SKIP() << dir << " not present";
  std::vector<int> uses(std::size(kFieldChecks), 0);
  for (const json& entry : load_json(dir / "index.json")) {
    const fs::path case_dir = dir / entry["path"].get<std::string>();
    const std::vector<uint8_t> bytes = read_bytes(case_dir / "model.tflite");
    const tflite::Operator& op = *tflite::GetModel(bytes.data())->subgraphs()->Get(0)->operators()->Get(0);
    const json params = load_json(case_dir / "golden.json")["params"];
    for (size_t i = 0; i < std::size(kFieldChecks); ++i) {
      const FieldCheck& check = kFieldChecks[i];
      if (entry["op"] != check.op || (check.param != nullptr && !params.contains(check.param))) continue;
      SCOPED_TRACE(case_dir.string() + ": " + (check.param ? check.param : "options table"));
      ++uses[i];
      ASSERT_EQ(op.builtin_options_type(), check.table) << EnumNameBuiltinOptions(op.builtin_options_type());
      ASSERT_NE(op.builtin_options(), nullptr);
      if (check.param == nullptr) continue;
      const json got = check.read(op);
      EXPECT_TRUE(same_value(got, params[check.param])) << got << " vs " << params[check.param];
    }
  }
  // Every check must have met a case; one that never does checks nothing.
  for (size_t i = 0; i < std::size(kFieldChecks); ++i) {
    EXPECT_GT(uses[i], 0) << kFieldChecks[i].op << " " << (kFieldChecks[i].param ? kFieldChecks[i].param : "");
  }
}

// --- Tables of the recurrent models, against what the models state elsewhere ---

// The code of the builtin operator called `name`.
int code_of(const std::string& name) {
  for (int code = 0; code < 256; ++code) {
    if (tflite_builtin_name(code) != nullptr && name == tflite_builtin_name(code)) return code;
  }
  ADD_FAILURE() << "no builtin operator " << name;
  return -1;
}

// The operators called `name` in every subgraph of `model`, each with the index of its subgraph.
using OpsInSubgraphs = std::vector<std::pair<uint32_t, const tflite::Operator*>>;

OpsInSubgraphs ops_named(const tflite::Model& model, const std::string& name) {
  OpsInSubgraphs found;
  for (uint32_t s = 0; s < model.subgraphs()->size(); ++s) {
    for (const tflite::Operator* op : *model.subgraphs()->Get(s)->operators()) {
      if (builtin_code(model, *op) == code_of(name)) found.emplace_back(s, op);
    }
  }
  return found;
}

std::vector<int32_t> int32_data(const tflite::Model& model, const tflite::Tensor& t) {
  const auto* data = model.buffers()->Get(t.buffer())->data();
  std::vector<int32_t> values(data ? data->size() / sizeof(int32_t) : 0);
  if (!values.empty()) std::memcpy(values.data(), data->data(), values.size() * sizeof(int32_t));
  return values;
}

// A model of models-recurrent/ and the operators of one kind in it.
class SchemaOnRecurrentModels : public ::testing::Test {
 protected:
  // Loads models-recurrent/<name> and returns its operators called `op_name`, each with its subgraph.
  // Sets `absent` (the test should skip) when the shared data is not there.
  OpsInSubgraphs ops(const char* name, const char* op_name) {
    const fs::path file = kShared / "models-recurrent" / name / "model.tflite";
    absent = !shared_available(file);
    if (absent) return {};
    bytes_ = read_bytes(file);
    model_ = tflite::GetModel(bytes_.data());
    return ops_named(*model_, op_name);
  }
  const tflite::Model& model() const { return *model_; }
  const tflite::Tensor& tensor(uint32_t subgraph, int32_t index) const {
    return *model_->subgraphs()->Get(subgraph)->tensors()->Get(static_cast<uint32_t>(index));
  }

  bool absent = false;

 private:
  std::vector<uint8_t> bytes_;
  const tflite::Model* model_ = nullptr;
};

// CALL_ONCE runs the initialisation subgraph, which must be another subgraph of the model.
TEST_F(SchemaOnRecurrentModels, CallOnceNamesAnotherSubgraph) {
  const auto calls = ops("mww_hey_jarvis_int8", "CALL_ONCE");
  if (absent) GTEST_SKIP() << "mww_hey_jarvis_int8 not present";
  ASSERT_EQ(calls.size(), 1u);
  const tflite::CallOnceOptions* options = calls[0].second->builtin_options_as_CallOnceOptions();
  ASSERT_NE(options, nullptr);
  EXPECT_GT(options->init_subgraph_index(), 0);
  EXPECT_LT(options->init_subgraph_index(), static_cast<int>(model().subgraphs()->size()));
}

// The initialisation subgraph creates the variables that the main subgraph then reaches by the same names.
TEST_F(SchemaOnRecurrentModels, VariablesHaveTheSameNamesInBothSubgraphs) {
  const auto handles = ops("mww_hey_jarvis_int8", "VAR_HANDLE");
  if (absent) GTEST_SKIP() << "mww_hey_jarvis_int8 not present";
  std::vector<std::multiset<std::string>> names(model().subgraphs()->size());
  for (const auto& [subgraph, op] : handles) {
    const tflite::VarHandleOptions* options = op->builtin_options_as_VarHandleOptions();
    ASSERT_NE(options, nullptr);
    ASSERT_NE(options->shared_name(), nullptr);
    EXPECT_NE(options->shared_name()->str(), "");
    names[subgraph].insert(options->shared_name()->str());
  }
  ASSERT_EQ(names.size(), 2u);
  EXPECT_FALSE(names[0].empty());
  EXPECT_EQ(names[0], names[1]);
}

// SVDF: the feature weights have one row per filter, rank filters per output unit.
TEST_F(SchemaOnRecurrentModels, SvdfRankMatchesItsWeights) {
  const auto svdfs = ops("keyword_scrambled_int8", "SVDF");
  if (absent) GTEST_SKIP() << "keyword_scrambled_int8 not present";
  ASSERT_FALSE(svdfs.empty());
  for (const auto& [subgraph, op] : svdfs) {
    const tflite::SVDFOptions* options = op->builtin_options_as_SVDFOptions();
    ASSERT_NE(options, nullptr);
    const int32_t filters = tensor(subgraph, op->inputs()->Get(1)).shape()->Get(0);
    const int32_t units = tensor(subgraph, op->outputs()->Get(0)).shape()->Get(1);
    EXPECT_GE(options->rank(), 1);
    EXPECT_EQ(options->rank() * units, filters);
  }
}

// Length of one axis of a STRIDED_SLICE output (positive strides, no ellipsis or new axes).
int32_t sliced_length(int32_t dim, int32_t begin, int32_t end, int32_t stride, bool whole_begin, bool whole_end) {
  auto clamp = [dim](int32_t i) { return std::clamp(i < 0 ? i + dim : i, 0, dim); };
  const int32_t b = whole_begin ? 0 : clamp(begin);
  const int32_t e = whole_end ? dim : clamp(end);
  return std::max(0, (e - b + stride - 1) / stride);
}

// STRIDED_SLICE: each output shape follows from the input shape, begin, end, strides and the masks.
TEST_F(SchemaOnRecurrentModels, StridedSliceMasksGiveTheOutputShapes) {
  const auto slices = ops("mww_hey_jarvis_int8", "STRIDED_SLICE");
  if (absent) GTEST_SKIP() << "mww_hey_jarvis_int8 not present";
  ASSERT_FALSE(slices.empty());
  for (const auto& [subgraph, op] : slices) {
    const tflite::StridedSliceOptions* o = op->builtin_options_as_StridedSliceOptions();
    ASSERT_NE(o, nullptr);
    ASSERT_EQ(o->ellipsis_mask() | o->new_axis_mask(), 0);
    ASSERT_FALSE(o->offset());
    const auto* in = tensor(subgraph, op->inputs()->Get(0)).shape();
    const std::vector<int32_t> begin = int32_data(model(), tensor(subgraph, op->inputs()->Get(1)));
    const std::vector<int32_t> end = int32_data(model(), tensor(subgraph, op->inputs()->Get(2)));
    const std::vector<int32_t> strides = int32_data(model(), tensor(subgraph, op->inputs()->Get(3)));
    ASSERT_EQ(begin.size(), in->size());
    std::vector<int32_t> expected;
    for (uint32_t i = 0; i < in->size(); ++i) {
      ASSERT_GT(strides.at(i), 0);
      const int32_t length = sliced_length(in->Get(i), begin[i], end.at(i), strides[i], o->begin_mask() >> i & 1,
                                           o->end_mask() >> i & 1);
      if ((o->shrink_axis_mask() >> i & 1) == 0) expected.push_back(length);
    }
    const auto* out = tensor(subgraph, op->outputs()->Get(0)).shape();
    EXPECT_EQ(std::vector<int32_t>(out->begin(), out->end()), expected);
  }
}

}  // namespace
}  // namespace microaot
