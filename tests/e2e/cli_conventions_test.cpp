// Command-line conventions: --version, the documented exit codes (0 success, 1 failure, 2 usage), byte
// sizes with suffixes, help texts that only offer what works, run's summary line, inspect on models that
// cannot be compiled, and tvmc's spellings of the options.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <regex>
#include <nlohmann/json.hpp>

#include "demo_fixture.h"
#include "e2e_util.h"
#include "frontend/tflite_test_builder.h"
#include "support/version.h"

namespace fs = std::filesystem;

namespace microaot::e2e {
namespace {

class CliConventionsTest : public DemoModelTest {
 protected:
  int microaot(const std::vector<std::string>& args) { return run_microaot_capture(args, errors_, &output_); }
  std::string errors_;
  std::string output_;
};

TEST_F(CliConventionsTest, VersionComesFromTheProject) {
  ASSERT_EQ(microaot({"--version"}), 0) << errors_;
  EXPECT_EQ(output_, std::string("microaot ") + MICROAOT_VERSION + "\n");
}

TEST_F(CliConventionsTest, UsageErrorsExitWithTwo) {
  const std::string out = tmp_ + "/o";
  const std::vector<std::vector<std::string>> usage_errors = {
      {},
      {"frobnicate"},
      {"compile", demo_},
      {"compile", demo_, "-o", out, "--no-such-option"},
      {"compile", demo_, "-o", out, "--ram-budget", "-5"},
      {"compile", demo_, "-o", out, "--ram-budget", "8KB"},
      {"compile", demo_, "-o", out, "--ram-budget", "0"},
      {"compile", demo_, "-o", out, "--ram-budget", "99999999999999999999"},
      {"compile", demo_, "-o", out, "--flash-budget", "0"},
      {"compile", demo_, "-o", out, "--pool", "sram:0"},
      {"compile", demo_, "-o", out, "--alignment", "3"},
      {"compile", demo_, "-o", out, "--planner", "magic"},
      {"compile", demo_, "-o", out, "--target", "c -mcpu=pentium"},
      {"compile", demo_, "-o", out, "--target", "c -mcpu=cortex-m4", "--target-c-mcpu", "cortex-m7"},
      {"compile", demo_, "-o", out, "--output-format", "zip"},
      {"compile", demo_, "-o", out, "--optimize", "fast"},
      {"compile", demo_, demo_, "-o", out, "--output-format", "mlf"},
      {"run", demo_, "--input", demo_, "--output-dir", out, "--target", "cortex-m4", "--dump-tensors", out},
      {"run", demo_, "--input", demo_, "--output-dir", out, "--fresh-state"},
      {"run", demo_, "--input", demo_, "--output-dir", out, "--dump-tensors", out + "/d", "--ram-budget", "64K"},
      {"run", demo_, "--input", demo_, "--output-dir", out, "--batch", "--fresh-state", "--target", "cortex-m4"},
      {"bench", demo_, "--target", "host"},
      {"validate", demo_, "--input", demo_},
  };
  for (const auto& args : usage_errors) {
    EXPECT_EQ(microaot(args), 2) << testing::PrintToString(args) << ": " << errors_;
    EXPECT_FALSE(errors_.empty()) << testing::PrintToString(args);
  }
  EXPECT_FALSE(fs::exists(out));
}

TEST_F(CliConventionsTest, FailuresExitWithOne) {
  EXPECT_EQ(microaot({"compile", tmp_ + "/missing.tflite", "-o", tmp_ + "/o"}), 1);
  EXPECT_EQ(microaot({"compile", demo_, "-o", tmp_ + "/o", "--ram-budget", "512"}), 1);  // the plan needs more
  EXPECT_NE(errors_.find("Required"), std::string::npos) << errors_;
  EXPECT_EQ(microaot({"run", demo_, "--input", demo_, "--output-dir", tmp_ + "/o"}), 1);  // wrong input size
}

TEST_F(CliConventionsTest, HelpOffersOnlyWhatWorks) {
  ASSERT_EQ(microaot({"bench", "--help"}), 0);
  EXPECT_EQ(output_.find("host"), std::string::npos) << output_;
  EXPECT_NE(output_.find("cortex-m4 (the default)"), std::string::npos) << output_;
  ASSERT_EQ(microaot({"run", "--help"}), 0);
  EXPECT_NE(output_.find("host"), std::string::npos) << output_;
  ASSERT_EQ(microaot({"--help"}), 0);
  EXPECT_NE(output_.find("Exit status"), std::string::npos) << output_;
}

TEST_F(CliConventionsTest, ByteSizesTakeSuffixes) {
  for (const char* budget : {"8K", "8KiB", "64k", "1M", "1MiB", "8192"}) {
    EXPECT_EQ(microaot({"compile", demo_, "-o", tmp_ + "/o", "--ram-budget", budget}), 0) << budget << errors_;
  }
  EXPECT_EQ(microaot({"compile", demo_, "-o", tmp_ + "/o", "--pool", "fast:512", "--pool", "slow:4KiB:32"}), 0)
      << errors_;
}

TEST_F(CliConventionsTest, RunPrintsOneSummaryLine) {
  std::ofstream(tmp_ + "/in.bin", std::ios::binary) << std::string(256, '\x05');
  ASSERT_EQ(microaot({"run", demo_, "--input", tmp_ + "/in.bin", "--output-dir", tmp_ + "/out"}), 0) << errors_;
  EXPECT_EQ(output_, "microaot: ran " + demo_ + " on host: 1 input set, 1 output -> " + tmp_ +
                         "/out (output0.bin, microaot.json)\n");
}

TEST_F(CliConventionsTest, InspectListsUnsupportedOperators) {
  MICROAOT_REQUIRE_SHARED();
  const std::string unsupported = write_unsupported_op_model(tmp_);
  ASSERT_EQ(microaot({"inspect", unsupported}), 0) << errors_;
  EXPECT_NE(output_.find("LSH_PROJECTION"), std::string::npos) << output_;
  EXPECT_NE(output_.find("unsupported"), std::string::npos) << output_;
  EXPECT_NE(output_.find("(code 15)"), std::string::npos) << output_;
  EXPECT_NE(output_.find("microaot cannot compile this model"), std::string::npos) << output_;
  // A model microaot reads but whose types it refuses is shown too: a FULLY_CONNECTED with int16 weights
  // (16x16, which TFLM refuses as well).
  tflite_test::ModelSpec int16x16 = tflite_test::small_fc_model();
  for (const int id : {0, 1, 3}) int16x16.tensors[id].type = tflite::TensorType::INT16;
  int16x16.tensors[1].data.resize(16);
  const std::vector<uint8_t> bytes = tflite_test::build_model(int16x16);
  std::ofstream(tmp_ + "/int16x16.tflite", std::ios::binary)
      .write(reinterpret_cast<const char*>(bytes.data()), static_cast<std::streamsize>(bytes.size()));
  ASSERT_EQ(microaot({"inspect", tmp_ + "/int16x16.tflite"}), 0) << errors_;
  EXPECT_NE(output_.find("int16"), std::string::npos) << output_;
  EXPECT_NE(output_.find("type int16 is not supported"), std::string::npos) << output_;
  // Compile still refuses it, as before.
  EXPECT_EQ(microaot({"compile", unsupported, "-o", tmp_ + "/o"}), 1);
  EXPECT_NE(errors_.find("unsupported operators"), std::string::npos) << errors_;
  // ... and names the way out.
  EXPECT_NE(errors_.find("What to do: bind each to a C function of yours with --custom-op"), std::string::npos)
      << errors_;
  EXPECT_NE(errors_.find("--custom-op LSH_PROJECTION=lsh_projection.h,function=my_lsh_projection"), std::string::npos)
      << errors_;
}

TEST_F(CliConventionsTest, InspectRefusesAFileThatIsNoModel) {
  std::ofstream(tmp_ + "/junk.tflite") << "this is not a flatbuffer at all";
  EXPECT_EQ(microaot({"inspect", tmp_ + "/junk.tflite"}), 1);
  EXPECT_NE(errors_.find("error"), std::string::npos);
}

// A model in another format says what it looks like and what to do, from compile, run and inspect alike.
TEST_F(CliConventionsTest, AModelInAnotherFormatIsNamed) {
  std::ofstream(tmp_ + "/model.onnx", std::ios::binary)
      << std::string("\x08\x08\x12\x07pytorch\x1a\x03" "2.1:\x90\x01\n", 20) << std::string(200, 'x');
  std::ofstream(tmp_ + "/model.h5", std::ios::binary) << std::string("\x89HDF\r\n\x1a\n", 8) << std::string(200, '\0');
  EXPECT_EQ(microaot({"compile", tmp_ + "/model.onnx", "-o", tmp_ + "/o"}), 1);
  EXPECT_NE(errors_.find("malformed ONNX model"), std::string::npos) << errors_;  // the ONNX frontend read it
  EXPECT_EQ(microaot({"inspect", tmp_ + "/model.h5"}), 1);
  EXPECT_NE(errors_.find("Keras HDF5"), std::string::npos) << errors_;
  EXPECT_NE(errors_.find("TFLiteConverter"), std::string::npos) << errors_;
  fs::create_directories(tmp_ + "/saved");
  std::ofstream(tmp_ + "/saved/saved_model.pb") << "x";
  EXPECT_EQ(microaot({"compile", tmp_ + "/saved", "-o", tmp_ + "/o"}), 1);
  EXPECT_NE(errors_.find("it is a TensorFlow SavedModel folder"), std::string::npos) << errors_;
  EXPECT_FALSE(fs::exists(tmp_ + "/o"));
}

// `inspect --kernels` lists every kernel --link-kernels takes, and a wrong name there points at it.
TEST_F(CliConventionsTest, InspectListsTheKernelsLinkKernelsTakes) {
  ASSERT_EQ(microaot({"inspect", "--kernels"}), 0) << errors_;
  const std::string listing = output_;
  EXPECT_NE(listing.find("microaot_conv_2d_s8_packed_kxk_w16"), std::string::npos) << listing;
  EXPECT_NE(listing.find("portable, dsp"), std::string::npos) << listing;
  EXPECT_EQ(microaot({"compile", demo_, "--executor", "graph", "--link-kernels", "conv_2d_s8_nope", "-o", tmp_ + "/fw"}), 2);
  EXPECT_NE(errors_.find("`microaot inspect --kernels` lists them"), std::string::npos) << errors_;
  EXPECT_EQ(errors_.find("kernel_list.def"), std::string::npos) << errors_;
  // A name from the listing, without its microaot_ prefix, is one --link-kernels takes.
  ASSERT_EQ(microaot({"compile", demo_, "--executor", "graph", "--link-kernels", "softmax_s8", "-o", tmp_ + "/fw"}), 0)
      << errors_;
  EXPECT_NE(listing.find("microaot_softmax_s8 "), std::string::npos) << listing;
}

TEST_F(CliConventionsTest, TvmcSpellingsAreAccepted) {
  ASSERT_EQ(microaot({"compile", demo_, "--target=cmsis-nn, c", "--output", tmp_ + "/a"}), 0) << errors_;
  ASSERT_EQ(microaot({"compile", demo_, "--target=cmsis-nn, c -mcpu=cortex-m55", "--output=" + tmp_ + "/b"}), 0)
      << errors_;
  ASSERT_EQ(microaot({"compile", demo_, "--target=c", "--target-c-mcpu=cortex-m4", "-o", tmp_ + "/c"}), 0) << errors_;
  for (const char* dir : {"/a", "/b", "/c"}) EXPECT_TRUE(fs::exists(tmp_ + dir + "/model.h")) << dir;
}

// Two models with one file name: the first keeps its stem, the second is NAME_2 (command-line order).
TEST_F(CliConventionsTest, ModelsWithOneFileNameAreNumberedFromTheSecond) {
  fs::create_directories(tmp_ + "/a");
  fs::create_directories(tmp_ + "/b");
  fs::copy_file(demo_, tmp_ + "/a/model.tflite");
  fs::copy_file(demo_, tmp_ + "/b/model.tflite");
  ASSERT_EQ(microaot({"compile", tmp_ + "/a/model.tflite", tmp_ + "/b/model.tflite", "-o", tmp_ + "/two"}), 0) << errors_;
  EXPECT_TRUE(fs::exists(tmp_ + "/two/model/model.h"));
  EXPECT_TRUE(fs::exists(tmp_ + "/two/model_2/model_2.h"));
  const size_t first = output_.find("model.tflite -> " + tmp_ + "/two/model:");
  ASSERT_NE(first, std::string::npos) << output_;
  EXPECT_GT(output_.find("model.tflite -> " + tmp_ + "/two/model_2:"), first) << output_;
}

// The tvmc spellings a user tried: each is accepted with the meaning it has here (report.json shows it) or
// refused by name (exit 2, no output).
TEST_F(CliConventionsTest, TvmcSpellingsMapOntoMicroaotOptions) {
  auto compile = [&](const std::string& out, std::vector<std::string> extra) {
    std::vector<std::string> args = {"compile", demo_, "-o", tmp_ + "/" + out};
    args.insert(args.end(), extra.begin(), extra.end());
    return microaot(args);
  };
  auto report = [&](const std::string& out) { return nlohmann::json::parse(read_text(tmp_ + "/" + out + "/report.json")); };
  ASSERT_EQ(compile("m55", {"--target=cmsis-nn, c", "--target-cmsis-nn-mcpu=cortex-m55",
                            "--target-c-mcpu=cortex-m55"}), 0) << errors_;
  EXPECT_NE(report("m55")["flags"].get<std::string>().find("'cmsis-nn, c -mcpu=cortex-m55'"), std::string::npos);
  ASSERT_EQ(compile("usmp", {"--pass-config", "tir.usmp.enable=1", "--pass-config", "tir.usmp.algorithm=hill_climb",
                             "--pass-config", "tir.usmp.use_workspace_io=0", "--pass-config=tir.disable_vectorize=1"}),
            0) << errors_;
  EXPECT_EQ(report("usmp")["planner"], "hill_climb");
  EXPECT_EQ(report("usmp")["io_in_arena"], false);
  ASSERT_EQ(compile("aligned", {"--executor-aot-workspace-byte-alignment=8", "--model-format", "tflite"}), 0) << errors_;
  EXPECT_EQ(report("aligned")["alignment"], 8);
  ASSERT_EQ(microaot({"compile", demo_, "-f", "mlf", "-o", tmp_ + "/model.tar"}), 0) << errors_;
  EXPECT_TRUE(fs::is_regular_file(tmp_ + "/model.tar"));
  ASSERT_EQ(compile("pools", {"--workspace-pools=sram", "--workspace-pools-targets=sram:c",
                              "--workspace-pools-size-hint-bytes=sram:64K"}), 0) << errors_;
  EXPECT_EQ(report("pools")["pools"][0]["name"], "sram");
  ASSERT_EQ(compile("one_pool", {"--workspace-pools=sram"}), 0) << errors_;  // one pool of any size: the arena
  const std::vector<std::pair<std::vector<std::string>, std::string>> refused = {
      {{"--pass-config", "relay.FuseOps.max_depth=1"}, "relay.FuseOps.max_depth: not a setting microaot has"},
      {{"--pass-config", "tir.usmp.enable=0"}, "always plans all memory statically"},
      {{"--model-format", "keras"}, "--model-format keras: this build reads tflite and onnx models"},
      {{"--executor-aot-workspace-byte-alignment=16", "--alignment", "4"}, "give one of them"},
      {{"--target-cmsis-nn-mcpu=cortex-m55"}, "needs --target \"cmsis-nn, c\""},
      {{"--workspace-pools=sram,dtcm", "--workspace-pools-size-hint-bytes=sram:8K"}, "dtcm has no size"},
      {{"--workspace-pools=sram", "--workspace-pools-read-bandwidth-bytes-per-cycle=sram:4"},
       "--workspace-pools-read-bandwidth-bytes-per-cycle: microaot places buffers by lifetime and size"},
      {{"--target", "c -mcpu=cortex-m4 -mattr=+fast"}, "unknown -mattr entry '+fast'"},
  };
  for (const auto& [extra, message] : refused) {
    EXPECT_EQ(compile("refused", extra), 2) << testing::PrintToString(extra);
    EXPECT_NE(errors_.find(message), std::string::npos) << testing::PrintToString(extra) << ": " << errors_;
  }
  EXPECT_FALSE(fs::exists(tmp_ + "/refused"));
}

// -mattr=+nodsp (or LLVM's -dsp) takes the DSP kernels away, and the folder records it.
TEST_F(CliConventionsTest, MattrNoDspTakesThePortableKernels) {
  ASSERT_EQ(microaot({"compile", demo_, "--target", "c -mcpu=cortex-m4", "-o", tmp_ + "/dsp"}), 0) << errors_;
  EXPECT_NE(read_text(tmp_ + "/dsp/report.json").find("\"dsp\""), std::string::npos);
  // The packed kernels are written for the DSP extension: the reports say so, not "portable".
  EXPECT_EQ(nlohmann::json::parse(read_text(tmp_ + "/dsp/report.json"))["ops"][0]["implementation"], "dsp-packed");
  EXPECT_TRUE(std::regex_search(read_text(tmp_ + "/dsp/network_info.txt"),
                                std::regex("microaot_conv_2d_s8_packed_kxk_w16 +dsp-packed")))
      << read_text(tmp_ + "/dsp/network_info.txt");
  for (const char* mattr : {"-mattr=+nodsp", "-mattr=-dsp"}) {
    const std::string out = tmp_ + "/nodsp" + mattr;
    ASSERT_EQ(microaot({"compile", demo_, "--target", std::string("c -mcpu=cortex-m4 ") + mattr, "-o", out}), 0)
        << errors_;
    const nlohmann::json report = nlohmann::json::parse(read_text(out + "/report.json"));
    for (const auto& op : report["ops"]) EXPECT_EQ(op["implementation"], "portable") << mattr << " " << op;
    EXPECT_NE(report["flags"].get<std::string>().find("-mcpu=cortex-m4+nodsp"), std::string::npos) << report["flags"];
  }
}

// A CUSTOM op: inspect marks it, compile refuses it without a binding (naming its index and custom name)
// and checks every binding: malformed values exit 2, an unused name or a missing header 1, with no output.
TEST_F(CliConventionsTest, CustomOpsAreMarkedAndTheirBindingsChecked) {
  tflite_test::ModelSpec m;
  m.tensors = {tflite_test::activation("in", {1, 4}, 0.5f, 0), tflite_test::activation("out", {1, 4}, 0.5f, 0)};
  m.ops = {tflite_test::op(32, 1, {0}, {1}, "Twice")};
  m.inputs = {0};
  m.outputs = {1};
  const std::vector<uint8_t> bytes = tflite_test::build_model(m);
  const std::string model = tmp_ + "/custom.tflite";
  std::ofstream(model, std::ios::binary).write(reinterpret_cast<const char*>(bytes.data()),
                                               static_cast<std::streamsize>(bytes.size()));
  std::ofstream(tmp_ + "/twice.h") << "#include \"microaot/custom_op.h\"\n";
  ASSERT_EQ(microaot({"inspect", model}), 0) << errors_;
  EXPECT_NE(output_.find("custom: needs --custom-op"), std::string::npos) << output_;
  const std::string out = tmp_ + "/o";
  EXPECT_EQ(microaot({"compile", model, "-o", out}), 1);
  EXPECT_NE(errors_.find("op 0: custom operator 'Twice', version 1 (custom: needs --custom-op)"), std::string::npos)
      << errors_;
  const std::string header = "=" + tmp_ + "/twice.h";
  EXPECT_EQ(microaot({"compile", model, "-o", out, "--custom-op", "Twice"}), 2) << errors_;
  EXPECT_EQ(microaot({"compile", model, "-o", out, "--custom-op", "Twice" + header + ",stack=4"}), 2) << errors_;
  EXPECT_EQ(microaot({"compile", model, "-o", out, "--custom-op", "Twice" + header, "--output-format=mlf"}), 2);
  EXPECT_EQ(microaot({"compile", model, "-o", out, "--custom-op", "Twice=" + tmp_ + "/none.h"}), 1) << errors_;
  EXPECT_EQ(microaot({"compile", model, "-o", out, "--custom-op", "Twice" + header, "--custom-op", "Once" + header}), 1);
  EXPECT_NE(errors_.find("--custom-op Once: no operator of the model is 'Once'"), std::string::npos) << errors_;
  EXPECT_FALSE(fs::exists(out));
  // run builds a program: the function's code is needed (no twice.c beside twice.h), and said so first.
  EXPECT_EQ(microaot({"run", model, "--input", model, "--output-dir", out, "--custom-op", "Twice" + header}), 1);
  EXPECT_NE(errors_.find("needs the C source of microaot_custom_twice: give --custom-source FILE.c"),
            std::string::npos) << errors_;
  ASSERT_EQ(microaot({"compile", model, "-o", out, "--custom-op", "Twice" + header}), 0) << errors_;
  EXPECT_EQ(read_text(out + "/custom/twice.h"), "#include \"microaot/custom_op.h\"\n");
}

}  // namespace
}  // namespace microaot::e2e
