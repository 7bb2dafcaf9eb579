// RESHAPE: a view of its input (ops/view_common.h); the optional shape input is not read.
#include "ops/op_checks.h"
#include "ops/op_handler.h"
#include "ops/read_options.h"
#include "ops/view_common.h"

namespace microaot {
namespace {

void check(const Graph& graph, const Op& op) {
  expect_arity(graph, op, 1, 2, 1);
  check_view(graph, op);
}

int64_t macs(const Graph&, const Op&) { return 0; }

// RESHAPE may carry its target shape here, in its second input, or both; the output shape decides.
OpOptions read_options(const Graph&, const Op&, const tflite::Operator& source) {
  ReshapeOptions r;
  if (const auto* o = source.builtin_options_as_ReshapeOptions()) {
    if (o->new_shape() != nullptr) r.new_shape.assign(o->new_shape()->begin(), o->new_shape()->end());
  }
  return r;
}

}  // namespace

extern const OpHandler reshape_handler = {check, /*lower=*/nullptr, macs, /*is_view=*/true, /*in_place=*/nullptr,
                                         read_options};

}  // namespace microaot
