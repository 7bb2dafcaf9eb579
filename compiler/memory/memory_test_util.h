// Helpers shared by the memory planning tests: record builders and random plan requests.
#pragma once

#include <algorithm>
#include <random>
#include <string>
#include <vector>

#include "memory/buffer.h"

// Sanitizer and unoptimized builds run fewer property-test trials.
#if defined(__SANITIZE_ADDRESS__) || !defined(NDEBUG)
#define MICROAOT_SLOW_TESTS 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define MICROAOT_SLOW_TESTS 1
#endif
#endif

namespace microaot {
namespace testing_util {

inline BufferRecord rec(int id, int64_t size, int64_t alignment, int first, int last,
                        BufferKind kind = BufferKind::kTensor) {
  return BufferRecord{id, size, alignment, first, last, kind};
}

inline std::string join(const std::vector<std::string>& lines) {
  std::string text;
  for (const std::string& line : lines) text += line + "\n";
  return text;
}

inline bool mentions(const std::vector<std::string>& problems, const std::string& a, const std::string& b = "") {
  for (const std::string& p : problems) {
    if (p.find(a) != std::string::npos && p.find(b) != std::string::npos) return true;
  }
  return false;
}

// How the checker names a buffer.
inline std::string buffer_name(const BufferRecord& r) {
  return r.kind == BufferKind::kScratch ? "scratch of op " + std::to_string(r.first_op)
                                        : "tensor " + std::to_string(r.tensor_id);
}

struct RandomShape {
  int max_records = 20;
  int max_op = 14;
  int max_length = 6;
  int max_size = 2000;
  bool permits = true;
};

// Random lifetime sets: sometimes unaligned sizes, zero sizes, scratch buffers, long and one-op lifetimes;
// plus random valid permits (a buffer produced at the op where another dies, any shift in [-size, size]).
inline PlanRequest random_request(std::mt19937& rng, const RandomShape& shape = RandomShape()) {
  static const int64_t kAlignments[] = {1, 2, 4, 8, 16, 64};
  std::uniform_int_distribution<int> count_dist(0, shape.max_records), op_dist(0, shape.max_op);
  std::uniform_int_distribution<int> len_dist(0, shape.max_length), size_dist(0, shape.max_size);
  std::uniform_int_distribution<int> align_dist(0, 5), coin(0, 7);
  bool round_sizes = coin(rng) < 4;  // what analyze_lifetimes produces
  PlanRequest request;
  int count = count_dist(rng);
  for (int i = 0; i < count; ++i) {
    int first = op_dist(rng);
    int64_t alignment = kAlignments[align_dist(rng)];
    int64_t size = coin(rng) == 0 ? 0 : size_dist(rng);
    if (round_sizes) size = align_up(size, alignment);
    bool scratch = coin(rng) == 0;
    request.records.push_back(rec(scratch ? -1 : 100 + i, size, alignment, first,
                                  scratch ? first : first + len_dist(rng),
                                  scratch ? BufferKind::kScratch : BufferKind::kTensor));
  }
  if (!shape.permits) return request;
  for (size_t out = 0; out < request.records.size(); ++out) {
    for (size_t in = 0; in < request.records.size(); ++in) {
      const BufferRecord& o = request.records[out];
      const BufferRecord& i = request.records[in];
      if (out == in || o.kind != BufferKind::kTensor || i.kind != BufferKind::kTensor) continue;
      if (i.last_op != o.first_op || coin(rng) >= 3) continue;
      int64_t reach = std::max(o.size, i.size);
      std::uniform_int_distribution<int64_t> shift(-reach, reach);
      // Exactly in place (shift 0) is the common real case.
      request.permits.push_back(OverlapPermit{out, in, coin(rng) < 2 ? 0 : shift(rng)});
    }
  }
  return request;
}

}  // namespace testing_util
}  // namespace microaot
