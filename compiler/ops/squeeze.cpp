// SQUEEZE: drops size-1 dimensions, a view of its input (ops/view_common.h).
#include "ops/op_checks.h"
#include "ops/op_handler.h"
#include "ops/view_common.h"

namespace microaot {
namespace {

void check(const Graph& graph, const Op& op) {
  expect_arity(graph, op, 1, 1, 1);
  check_view(graph, op);
}

int64_t macs(const Graph&, const Op&) { return 0; }

}  // namespace

extern const OpHandler squeeze_handler = {check, /*lower=*/nullptr, macs, /*is_view=*/true};

}  // namespace microaot
