#include "memory/plan_errors.h"

#include <sstream>

namespace microaot {

namespace {

std::string named_list(const std::vector<NamedBytes>& items) {
  std::string text;
  for (const NamedBytes& b : items) text += "\n  " + b.name + ": " + std::to_string(b.bytes) + " bytes";
  return text;
}

std::string pools_text(const std::vector<NamedBytes>& pools) {
  std::string text;
  for (const NamedBytes& p : pools) {
    text += (text.empty() ? "" : ", ") + p.name + " (" + std::to_string(p.bytes) + " bytes)";
  }
  return text;
}

void what_could_help(std::ostringstream& out, const BudgetFacts& f) {
  out << "\nWhat could help:";
  for (const NamedBytes& other : f.smaller_plans) out << "\n  --planner " << other.name << " needs " << other.bytes << " bytes";
  if (!f.io_in_arena) out << "\n  --io-in-arena on shares the input/output bytes with activations";
  if (f.pools == 0) {
    out << "\n  --pool main:" << f.budget_bytes << " --pool NAME:SIZE instead of --ram-budget, if the board has a "
        << "second memory (e.g. slower SRAM): the first --pool is the arena, the next takes what does not fit";
  } else {
    out << "\n  no --ram-budget: it counts the RAM of every pool, while each --pool is already bounded by its size";
  }
  out << tiling_help_text(f.tiling);
  out << "\n  --alignment 4 (now " << f.alignment << ") wastes fewer bytes between buffers";
  out << "\n  a smaller input resolution or fewer channels around the peak layer";
}

}  // namespace

std::string tiling_help_text(const TilingFacts& t) {
  std::ostringstream out;
  if (t.floor_bytes <= 0 || t.floor_bytes >= t.untiled_bound_bytes) {
    out << "\n  fused bands (tiling) cannot lower the classic bound (" << t.untiled_bound_bytes
        << " bytes): no chain of row-streamable layers holds its peak";
  } else if (t.graph_executor || !t.tiling_on) {
    out << "\n  " << (t.graph_executor ? "--executor aot" : "--tiling auto")
        << ": fused bands could bring the classic bound from " << t.untiled_bound_bytes << " down to "
        << t.floor_bytes << " bytes" << (t.graph_executor ? "; the graph executor runs whole layers" : "");
  } else if (t.chains == 0) {
    out << "\n  fused bands could bring the classic bound from " << t.untiled_bound_bytes << " down to "
        << t.floor_bytes << " bytes, but no choice of them gave a smaller plan than this one";
  } else {
    out << "\n  fused bands already run " << t.chains << " chain(s); the most they can do is bring the classic "
        << "bound from " << t.untiled_bound_bytes << " down to " << t.floor_bytes << " bytes";
  }
  return out.str();
}

std::string budget_failure_text(const BudgetFacts& f) {
  std::ostringstream out;
  out << "Static memory planning failed. Required: " << f.required_bytes << " bytes, Available: " << f.budget_bytes
      << " bytes.\nThe budget counts what the application provides: " << f.macro
      << "_ARENA_SIZE (the arena, its header included)" << (f.pools > 1 ? ", every further --pool" : "")
      << (f.io_in_arena ? "" : ", the input/output buffers") << "; the contexts are not counted.";
  if (!f.peak_step.empty()) {
    out << "\nThe peak is at " << f.peak_step << ", where these buffers are live:" << named_list(f.live_at_peak);
  }
  what_could_help(out, f);
  return out.str();
}

std::string pool_failure_text(const PoolFailure& f, const std::vector<NamedBytes>& pools,
                              const std::vector<NamedBytes>& buffers, const std::string& step) {
  const std::string pool = f.pool < pools.size() ? pools[f.pool].name : "?";
  const std::string figures = "Static memory planning failed. Required: " + std::to_string(f.required_bytes) +
                              " bytes, Available: " + std::to_string(f.available_bytes) + " bytes";
  std::ostringstream out;
  switch (f.kind) {
    case PoolFailureKind::kTooLarge:
      out << figures << " in the largest pool, " << pool << "." << named_list(buffers)
          << "\nA buffer is never split across pools; enlarge a pool to at least " << f.required_bytes << " bytes.";
      break;
    case PoolFailureKind::kOnePoolOnly:
      out << figures << " in pool " << pool << ".\nAt " << step << ", these buffers are live and fit in no other "
          << "pool:" << named_list(buffers) << "\nEven with in-place reuse they need " << f.required_bytes
          << " bytes together; a buffer is never split across pools. Enlarge pool " << pool
          << ", or another pool so that one of them fits there.";
      break;
    case PoolFailureKind::kTotal:
      out << figures << " in all pools together.\nAt " << step << ", these buffers are live:" << named_list(buffers)
          << "\nEven with in-place reuse they need " << f.required_bytes << " bytes; add or enlarge a pool.";
      break;
    default:
      out << "Static memory planning failed: no placement found in the pools " << pools_text(pools) << ".\nPool "
          << pool << " still needed " << f.required_bytes << " bytes of its " << f.available_bytes
          << " with no buffer left that a later pool can hold. Pools are assigned by a heuristic, so a placement "
          << "may exist; enlarge pool " << pool << " or add a pool after it.";
  }
  return out.str();
}

std::string persistent_overflow_text(const NamedBytes& first_pool, int64_t end, int64_t persistent_bytes,
                                     int64_t arena_bytes) {
  return "Static memory planning failed. Required: " + std::to_string(end) + " bytes, Available: " +
         std::to_string(first_pool.bytes) + " bytes in pool " + first_pool.name + ": the model's state (" +
         std::to_string(persistent_bytes) + " bytes of variables) stays in the first pool, after its " +
         std::to_string(arena_bytes) + " bytes of activations";
}

std::string arena_limit_text(int64_t required_bytes) {
  return "the model needs " + std::to_string(required_bytes) + " bytes of RAM for its buffers; the limit is 2 GiB - 1";
}

}  // namespace microaot
