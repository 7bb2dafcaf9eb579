// `microaot compile` on several hundred damaged real models (seeded, so every run tries the same files):
// truncations, bit flips, flatbuffer offsets and vector lengths overwritten with extreme values, garbage,
// zeros and appended junk. Each run must either succeed with a complete output folder or fail with
// status 1, an error on stderr and no folder; never a signal, never a hang, never staging leftovers.
#include <fcntl.h>
#include <gtest/gtest.h>
#include <signal.h>
#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <map>
#include <string>
#include <thread>
#include <vector>

#include "e2e_util.h"
#include "tflite_schema_generated.h"

extern char** environ;
namespace fs = std::filesystem;

namespace microaot::e2e {
namespace {

using Bytes = std::vector<uint8_t>;
constexpr int kTimeoutSeconds = 20;  // generous for sanitizer builds; a sound compile takes well under 1 s

struct Mutant {
  std::string name;  // how it was made, for failure messages
  Bytes bytes;
};

class Rng {  // xorshift64: the same mutants on every run and platform
 public:
  uint64_t next() {
    state_ ^= state_ << 13;
    state_ ^= state_ >> 7;
    state_ ^= state_ << 17;
    return state_;
  }
  size_t below(size_t n) { return n == 0 ? 0 : static_cast<size_t>(next() % n); }

 private:
  uint64_t state_ = 0x9e3779b97f4a7c15ull;
};

void put32(Bytes& b, size_t at, uint32_t v) {
  if (at + 4 <= b.size()) std::memcpy(b.data() + at, &v, 4);
}

// Positions of uint32 fields worth breaking: the root offset and the length words of the vectors the
// reader walks (subgraphs, tensors, operators, buffers, shapes, operator inputs/outputs, buffer data).
std::vector<size_t> length_positions(const Bytes& model) {
  std::vector<size_t> at = {0};
  const auto pos = [&](const void* vector) {
    if (vector != nullptr) at.push_back(static_cast<const uint8_t*>(vector) - model.data());
  };
  const tflite::Model* m = tflite::GetModel(model.data());
  pos(m->subgraphs());
  pos(m->buffers());
  pos(m->operator_codes());
  const tflite::SubGraph* sg = m->subgraphs()->Get(0);
  for (const void* v : {static_cast<const void*>(sg->tensors()), static_cast<const void*>(sg->operators()),
                        static_cast<const void*>(sg->inputs()), static_cast<const void*>(sg->outputs())}) {
    pos(v);
  }
  for (uint32_t i = 0; i < sg->tensors()->size() && i < 8; ++i) {
    pos(sg->tensors()->Get(i)->shape());
    if (const auto* q = sg->tensors()->Get(i)->quantization()) pos(q->scale());
  }
  for (uint32_t i = 0; i < sg->operators()->size() && i < 8; ++i) {
    pos(sg->operators()->Get(i)->inputs());
    pos(sg->operators()->Get(i)->outputs());
  }
  for (uint32_t i = 0; i < m->buffers()->size() && i < 8; ++i) pos(m->buffers()->Get(i)->data());
  return at;
}

void add_mutants(const std::string& model, const Bytes& seed, Rng& rng, int count, std::vector<Mutant>& out) {
  const size_t n = seed.size();
  const std::vector<size_t> lengths = length_positions(seed);
  const uint32_t extremes[] = {0, 1, 0x7fffffffu, 0x80000000u, 0xffffffffu, static_cast<uint32_t>(n - 1),
                               static_cast<uint32_t>(n), static_cast<uint32_t>(n + 1)};
  for (int k = 0; k < count; ++k) {
    Bytes b = seed;
    std::string how;
    switch (k % 7) {
      case 0: {  // truncation: the short lengths first, then spread over the file
        const size_t cuts[] = {0, 1, 4, 8, 12, 16, 24, n / 2, n - 1};
        const size_t cut = k / 7 < 9 ? cuts[k / 7] : rng.below(n);
        b.resize(std::min(cut, n));
        how = "truncated to " + std::to_string(b.size());
        break;
      }
      case 1:
      case 2: {  // bit flips
        const size_t flips = 1 + rng.below(8);
        for (size_t f = 0; f < flips; ++f) b[rng.below(n)] ^= static_cast<uint8_t>(1u << rng.below(8));
        how = std::to_string(flips) + " bit flips";
        break;
      }
      case 3: {  // a vector length or the root offset set to an extreme value
        const size_t at = lengths[rng.below(lengths.size())];
        const uint32_t v = extremes[rng.below(std::size(extremes))];
        put32(b, at, v);
        how = "length word at " + std::to_string(at) + " = " + std::to_string(v);
        break;
      }
      case 4: {  // any aligned word (offsets, counts, indices, sizes) set to an extreme value
        const size_t at = rng.below(n / 4) * 4;
        const uint32_t v = extremes[rng.below(std::size(extremes))];
        put32(b, at, v);
        how = "word at " + std::to_string(at) + " = " + std::to_string(v);
        break;
      }
      case 5: {  // appended junk, or a run of garbage bytes inside
        const size_t len = 1 + rng.below(256);
        if (rng.below(2) == 0) {
          for (size_t i = 0; i < len; ++i) b.push_back(static_cast<uint8_t>(rng.next()));
          how = std::to_string(len) + " junk bytes appended";
        } else {
          const size_t at = rng.below(n);
          for (size_t i = at; i < std::min(n, at + len); ++i) b[i] = static_cast<uint8_t>(rng.next());
          how = "garbage over bytes " + std::to_string(at) + "+" + std::to_string(len);
        }
        break;
      }
      default: {  // whole-file garbage, zeros, or garbage behind a valid header
        const size_t kind = rng.below(3);
        if (kind == 0) {
          for (auto& byte : b) byte = static_cast<uint8_t>(rng.next());
          how = "all random";
        } else if (kind == 1) {
          std::fill(b.begin(), b.end(), 0);
          how = "all zero";
        } else {
          for (size_t i = 8; i < n; ++i) b[i] = static_cast<uint8_t>(rng.next());
          how = "random after the header";
        }
      }
    }
    out.push_back({model + ": " + how, std::move(b)});
  }
}

struct Result {
  int exit_code = -1;  // -1: killed by a signal
  int signal = 0;
  bool timed_out = false;
};

// Runs `microaot compile` for every mutant, several at a time, killing any that runs too long.
std::vector<Result> compile_all(const std::string& dir, size_t count) {
  std::vector<Result> results(count);
  std::map<pid_t, std::pair<size_t, std::chrono::steady_clock::time_point>> running;
  const size_t parallel = std::max(2u, std::thread::hardware_concurrency());
  size_t next = 0;
  while (next < count || !running.empty()) {
    while (next < count && running.size() < parallel) {
      const std::string base = dir + "/m" + std::to_string(next);
      const std::string model = base + ".tflite", out = base + "-out", err = base + ".err";
      std::vector<std::string> argv = {MICROAOT_BIN, "compile", model, "-o", out};
      std::vector<char*> args;
      for (std::string& a : argv) args.push_back(a.data());
      args.push_back(nullptr);
      posix_spawn_file_actions_t actions;
      posix_spawn_file_actions_init(&actions);
      posix_spawn_file_actions_addopen(&actions, 1, "/dev/null", O_WRONLY, 0);
      posix_spawn_file_actions_addopen(&actions, 2, err.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
      pid_t pid = 0;
      const int spawned = posix_spawn(&pid, args[0], &actions, nullptr, args.data(), environ);
      posix_spawn_file_actions_destroy(&actions);
      if (spawned != 0) {
        ADD_FAILURE() << "cannot start " << MICROAOT_BIN;
        return results;
      }
      running[pid] = {next++, std::chrono::steady_clock::now()};
    }
    int status = 0;
    const pid_t done = waitpid(-1, &status, WNOHANG);
    if (done > 0 && running.count(done) != 0) {
      Result& r = results[running[done].first];
      r.exit_code = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
      r.signal = WIFSIGNALED(status) ? WTERMSIG(status) : 0;
      running.erase(done);
      continue;
    }
    for (auto& [pid, job] : running) {
      if (std::chrono::steady_clock::now() - job.second > std::chrono::seconds(kTimeoutSeconds)) {
        results[job.first].timed_out = true;
        kill(pid, SIGKILL);
      }
    }
    std::this_thread::sleep_for(std::chrono::milliseconds(5));
  }
  return results;
}

void check_result(const std::string& dir, size_t i, const Mutant& mutant, const Result& r, int* refused) {
  SCOPED_TRACE("mutant " + std::to_string(i) + " (" + mutant.name + ")");
  const std::string base = dir + "/m" + std::to_string(i);
  const std::string errors = read_text(base + ".err");
  ASSERT_FALSE(r.timed_out) << "compile ran longer than " << kTimeoutSeconds << " s";
  ASSERT_EQ(r.signal, 0) << "killed by signal " << r.signal << ":\n" << errors;
  if (r.exit_code == 0) {
    for (const char* file : {"model.h", "model.c", "weights.c", "memory_map.h", "report.json", "CMakeLists.txt"}) {
      EXPECT_TRUE(fs::is_regular_file(base + "-out/" + file)) << file << " missing from a successful compile";
    }
    return;
  }
  ++*refused;
  EXPECT_EQ(r.exit_code, 1) << errors;
  EXPECT_EQ(errors.rfind("microaot: error: ", 0), 0u) << "refusal without a proper message:\n" << errors;
  EXPECT_GT(errors.size(), std::string("microaot: error: \n").size()) << "empty error message";
  EXPECT_EQ(errors.find("internal compiler error"), std::string::npos) << errors;
  EXPECT_FALSE(fs::exists(base + "-out")) << "a refused compile left an output folder";
}

TEST(MutatedModels, CompileCleanlyOrFailWithAnError) {
  MICROAOT_REQUIRE_SHARED();
  // Mostly small models (fast compiles), one mid-sized one; int8 and float.
  const std::pair<const char*, int> plan[] = {{"hello_world_int8", 70},  {"hello_world_f32", 56},
                                              {"simple_add_int8", 56},   {"micro_speech_int8", 70},
                                              {"kws_dscnn_int8", 70},    {"ic_resnet8_int8", 42}};
  Rng rng;
  std::vector<Mutant> mutants;
  for (const auto& [model, count] : plan) {
    const Bytes seed = read_file(shared_dir() + "/models/" + model + "/model.tflite");
    ASSERT_GT(seed.size(), 64u) << model;
    add_mutants(model, seed, rng, count, mutants);
  }
  ASSERT_GE(mutants.size(), 300u);
  const std::string dir = make_temp_dir();
  for (size_t i = 0; i < mutants.size(); ++i) {
    std::ofstream(dir + "/m" + std::to_string(i) + ".tflite", std::ios::binary)
        .write(reinterpret_cast<const char*>(mutants[i].bytes.data()),
               static_cast<std::streamsize>(mutants[i].bytes.size()));
  }
  const std::vector<Result> results = compile_all(dir, mutants.size());
  int refused = 0;
  for (size_t i = 0; i < mutants.size(); ++i) check_result(dir, i, mutants[i], results[i], &refused);
  for (const auto& entry : fs::directory_iterator(dir)) {
    const std::string name = entry.path().filename().string();
    EXPECT_EQ(name.find(".microaot-"), std::string::npos) << "staging leftover " << name;
  }
  // Most damage must be detected; a few mutants (junk appended, a flipped weight bit) still compile.
  EXPECT_GT(refused, static_cast<int>(mutants.size()) / 2);
  std::printf("%zu mutants: %d refused, %zu compiled\n", mutants.size(), refused, mutants.size() - refused);
  if (!HasFailure()) remove_dir(dir);
}

}  // namespace
}  // namespace microaot::e2e
