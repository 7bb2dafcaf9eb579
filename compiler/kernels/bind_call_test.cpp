// Lowering's check of a call against its kernel: arguments in number and type, optional inputs, and
// derived constants turned into constant tensors of the graph.
#include <gtest/gtest.h>

#include "kernels/bind_call.h"

namespace microaot {
namespace {

int add_tensor(Graph& g, DType type) {
  Tensor t;
  t.name = "t" + std::to_string(g.tensors.size());
  t.dtype = type;
  t.shape = {4};
  g.tensors.push_back(t);
  return static_cast<int>(g.tensors.size()) - 1;
}

// A complete FULLY_CONNECTED float call: every field set, arguments input, weights, bias, output.
KernelCall fc_call(Graph& g) {
  KernelCall call;
  call.stem = "fully_connected_f32";
  for (const char* f : {"batches", "input_depth", "output_depth"}) call.params.set_int(f, 1);
  call.params.set_float("activation_min", -1.0f);
  call.params.set_float("activation_max", 1.0f);
  for (int i = 0; i < 4; ++i) call.args.push_back(add_tensor(g, DType::kFloat32));
  return call;
}

const KernelInfo& fc_kernel() { return *kernel_registry().find("fully_connected_f32", KernelVariant::kPlain); }

TEST(BindCall, AcceptsACompleteCallAndAnAbsentOptionalInput) {
  Graph g;
  KernelCall call = fc_call(g);
  EXPECT_EQ(kernel_call_problem(g, fc_kernel(), call), "");
  call.args[2] = kNoTensor;  // the bias is optional
  EXPECT_EQ(kernel_call_problem(g, fc_kernel(), call), "");
}

TEST(BindCall, RefusesArgumentsThatDoNotMatchTheSignature) {
  Graph g;
  KernelCall wrong_type = fc_call(g);
  wrong_type.args[1] = add_tensor(g, DType::kInt8);
  EXPECT_EQ(kernel_call_problem(g, fc_kernel(), wrong_type), "argument 1 is s8, the kernel takes f32");
  KernelCall absent = fc_call(g);
  absent.args[0] = kNoTensor;
  EXPECT_EQ(kernel_call_problem(g, fc_kernel(), absent), "argument 0 is absent");
  KernelCall few = fc_call(g);
  few.args.pop_back();
  EXPECT_EQ(kernel_call_problem(g, fc_kernel(), few), "too few arguments for microaot_fully_connected_f32");
  KernelCall many = fc_call(g);
  many.args.push_back(many.args[0]);
  EXPECT_EQ(kernel_call_problem(g, fc_kernel(), many), "too many arguments for microaot_fully_connected_f32");
}

TEST(BindCall, ReportsParamsThatDoNotBind) {
  Graph g;
  KernelCall call = fc_call(g);
  call.params.set_int("keep_num_dims", 1);
  EXPECT_EQ(kernel_call_problem(g, fc_kernel(), call),
            "field 'keep_num_dims' is not a field of microaot_fully_connected_params_f32");
}

TEST(BindCall, DerivedConstantsBecomeConstantTensors) {
  Graph g;
  KernelCall call = fc_call(g);
  Tensor packed;
  packed.name = "weights (packed)";
  packed.dtype = DType::kFloat32;
  packed.shape = {4};
  packed.data.assign(16, 0);
  call.derived.push_back(packed);
  call.args[1] = derived_arg(0);
  const size_t before = g.tensors.size();
  Op op;
  op.kind = OpKind::FullyConnected;
  bind_kernel_call(g, op, call);
  ASSERT_EQ(g.tensors.size(), before + 1);
  EXPECT_EQ(call.args[1], static_cast<int>(before));
  EXPECT_TRUE(g.tensors.back().is_constant);
  EXPECT_EQ(g.tensors.back().name, "weights (packed)");
  EXPECT_TRUE(call.derived.empty());
  EXPECT_EQ(call.kernel, fc_kernel().id);
  EXPECT_EQ(call.source, "kernels/portable/fully_connected_f32.c");
}

// A made-up byte-generic kernel with a list of inputs: "in*:any in:s32 out:any".
KernelInfo list_kernel() {
  static const ParamStruct params = {"list_params", {{"n", ParamKind::kI32}}};
  KernelInfo k;
  k.symbol = "gather_like";
  k.params = &params;
  k.args = parse_kernel_signature("in*:any in:s32 out:any");
  return k;
}

KernelCall list_call(const std::vector<int>& args) {
  KernelCall call;
  call.params.set_int("n", 1);
  call.args = args;
  return call;
}

TEST(BindCall, AListTakesEveryArgumentTheFixedOnesLeave) {
  Graph g;
  const int a = add_tensor(g, DType::kInt8), b = add_tensor(g, DType::kInt8), c = add_tensor(g, DType::kInt16);
  const int index = add_tensor(g, DType::kInt32), out = add_tensor(g, DType::kInt8);
  const KernelInfo k = list_kernel();
  KernelCall three = list_call({a, b, c, index, out});
  EXPECT_EQ(kernel_call_problem(g, k, three), "");  // `any` takes every type
  KernelCall one = list_call({a, index, out});
  EXPECT_EQ(kernel_call_problem(g, k, one), "");
  KernelCall empty = list_call({index, out});
  EXPECT_EQ(kernel_call_problem(g, k, empty), "the list of microaot_gather_like is empty");
  KernelCall misplaced = list_call({a, b, out, index});
  EXPECT_EQ(kernel_call_problem(g, k, misplaced), "argument 2 is s8, the kernel takes s32");
}

}  // namespace
}  // namespace microaot
