// bench's estimated cycles (driver/cycle_estimate.h) on QEMU (ctest label "qemu"): a loop of known
// instructions gets the table's cycles, and bench's figures hang together.
#include <gtest/gtest.h>

#include <cstdlib>
#include <fstream>
#include <nlohmann/json.hpp>
#include <string>
#include <utility>
#include <vector>

#include "compile/compile_model.h"
#include "driver/cortex_m.h"
#include "driver/cycle_estimate.h"
#include "e2e_util.h"

using nlohmann::json;

namespace microaot::e2e {
namespace {

std::string shared_model(const std::string& name) { return shared_dir() + "/models/" + name + "/model.tflite"; }

// hello_world_int8 built for `cpu`'s board in a new temporary folder and run once on a zero input (QEMU's
// execution log in exec_log when given). Returns the folder (the caller removes it) and the image.
std::pair<std::string, CortexMImage> run_hello_world(const std::string& cpu, const std::string& exec_log) {
  CompileOptions options;
  options.target = parse_target(cpu);
  const CompiledModel model = compile_model(read_file(shared_model("hello_world_int8")), options);
  const std::string dir = make_temp_dir();
  const CortexMBoard& board = cortex_m_board(cpu);
  const CortexMImage image = build_cortex_m_image(model, board, BuildTools{"arm-none-eabi-gcc", "", {}, {}}, dir);
  const std::vector<uint8_t> inputs(static_cast<size_t>(model.graph.tensor(model.graph.inputs[0]).byte_size()), 0);
  run_cortex_m_image(board, image, inputs, exec_log.empty() ? exec_log : dir + "/" + exec_log);
  return {dir, image};
}

// harness.c's clock check: SPIN_ITERATIONS (10000) rounds of subs (1 cycle) and bne (1, and the pipeline
// refill, 2, when taken: all rounds but the last), after one instruction setting the count; call_nothing is
// the same call without them.
TEST(CycleEstimateQemu, TheHarnessSpinLoopCostsWhatTheM4TableSays) {
  MICROAOT_REQUIRE_QEMU();
  MICROAOT_REQUIRE_SHARED_MODEL(std::string("hello_world_int8"));
  const std::string dir = run_hello_world("cortex-m4", "exec.log").first;
  std::ifstream log(dir + "/exec.log");
  const auto windows = measure_log_windows(log, CycleCore::m4, {"call_spin", "call_nothing"}, "bench_measure");
  ASSERT_EQ(windows.size(), 2u);
  const CycleWindow& spin = windows.at("call_spin");
  const CycleWindow& nothing = windows.at("call_nothing");
  ASSERT_TRUE(spin.complete && nothing.complete);
  EXPECT_EQ(spin.instructions - nothing.instructions, 1 + 2 * 10000);
  EXPECT_EQ(spin.cycles - nothing.cycles, 1 + 2 * 10000 + 2 * 9999);
  remove_dir(dir);
}

// The M55's SysTick ticks every 31.25 instructions: the harness's probes (bench.c) still count to the
// instruction. Its clock check (a call of 20001 instructions) and its sweep (calls of 0 to 128 nops, every
// place in the timer's 125-instruction beat) must read exactly; the driver refuses the run otherwise, and
// here results.txt is read directly.
TEST(CycleEstimateQemu, TheM55CountsKnownCallsExactly) {
  MICROAOT_REQUIRE_QEMU();
  MICROAOT_REQUIRE_SHARED_MODEL(std::string("hello_world_int8"));
  const auto [dir, image] = run_hello_world("cortex-m55", "");
  const std::string results = read_text(image.dir + "/results.txt");
  EXPECT_NE(results.find("clock_check 20001\n"), std::string::npos) << results;
  EXPECT_NE(results.find("clock_sweep_errors 0\n"), std::string::npos) << results;
  remove_dir(dir);
}

TEST(CycleEstimateQemu, BenchReportsCyclesAndTimeOverTheSameInstructions) {
  MICROAOT_REQUIRE_QEMU();
  MICROAOT_REQUIRE_SHARED_MODEL(std::string("hello_world_int8"));
  std::string errors, output;
  ASSERT_EQ(run_microaot_capture({"bench", shared_model("hello_world_int8"), "--json", "--clock-mhz", "100"}, errors,
                                 &output),
            0)
      << errors;
  const json r = json::parse(output);
  const json& e = r["estimated_cycles"];
  EXPECT_EQ(e["core"], "cortex-m4");
  EXPECT_EQ(e["instructions_counted"].get<int64_t>(), r["instructions"].get<int64_t>()) << "both count exactly";
  EXPECT_GT(e["cycles"].get<int64_t>(), e["instructions_counted"].get<int64_t>()) << "loads and branches cost more";
  EXPECT_NEAR(e["milliseconds"].get<double>(), e["cycles"].get<double>() / 1e5, 1e-4);
  EXPECT_NE(e["assumes"].get<std::string>().find("zero-wait-state"), std::string::npos);
  ASSERT_EQ(run_microaot_capture({"bench", shared_model("hello_world_int8"), "--cycles", "--target", "cortex-m33"},
                                 errors),
            2);
  EXPECT_NE(errors.find("cortex-m4 and cortex-m7"), std::string::npos) << errors;
}

}  // namespace
}  // namespace microaot::e2e
