// PLACEHOLDER until the handler is written.
#include "ops/op_handler.h"
#include "support/diagnostics.h"
namespace microaot {
namespace {
void check(const Graph&, const Op&) { throw CompileError("fully_connected: not implemented yet"); }
KernelCall lower(const Graph&, const Op&) { return {}; }
int64_t macs(const Graph&, const Op&) { return 0; }
}  // namespace
extern const OpHandler fully_connected_handler = {check, lower, macs};
}  // namespace microaot
