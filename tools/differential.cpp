// The differential harness: runs a kernel implementation against the portable one on random models that
// exercise it, on the host or an emulated Cortex-M, and compares every output byte for byte.
//   microaot_differential --kernel STEM... [--cases N] [--seed S] [--target T] [--candidate-target T]
//                         [--kernel-source PATH=FILE]... [--optimize speed|balanced|size] [--work DIR]
//                         [--focus OPERATOR [--wide | --int16]] [--cluster-weights K] [--keep]
// The reference run compiles each model for --target with the portable kernels (the cpu with "+nodsp": no
// ISA implementation is chosen, the same board runs it); the candidate run for --candidate-target (default:
// --target, so an ISA target picks its implementation) with each --kernel-source file in place of the
// folder's; a model with state runs three input sets in a row through one context, every set's outputs compared.
// Models come from the graph fuzzer's recipe builder (random ops, shapes, quantization and
// constants); only those the compiler accepts and that call one of the --kernel stems count; with --focus,
// models of that one operator whose windows and depths lean towards the specialised stems random models
// seldom reach (fuzz::focused_model_from_recipe; --int16: a weighted one in 16x8, or ADD, SUB, MUL in int16); with
// --wide as well, case k of a fixed list of layer shapes well
// outside the shared models' (fuzz::wide_model_from_recipe: windows and depths the packed kernels reduce in
// chunks), one case per shape unless --cases says otherwise. --cluster-weights K clusters each model's weights to K
// values per channel in both runs, kept as palettes (--compress-weights lossless): the palette kernels. --keep keeps every case's folder (the model,
// inputs, both runs' outputs). Exit 0: N cases, all identical; 1: a difference (the model
// and inputs are kept); 2: usage, or fewer than N cases found (a harness that compared nothing must not pass).
#include <CLI/CLI.hpp>

#include <algorithm>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <random>
#include <set>
#include <string>
#include <vector>

#include "driver/commands.h"
#include "graph_recipe.h"
#include "support/diagnostics.h"
#include "target/target.h"

namespace fs = std::filesystem;
using namespace microaot;

namespace {

struct Options {
  std::vector<std::string> kernels, kernel_sources;
  int cases = 20, max_tries = 20000;  // cases 0: with --wide, one per wide shape
  int cluster = 0;                    // --cluster-weights K: palettised weights in both runs
  unsigned seed = 1;
  std::string target, candidate_target, optimize = "speed", work = "differential-work", focus;
  bool wide = false, keep = false, int16 = false;
};

std::vector<uint8_t> random_bytes(std::mt19937& rng, size_t n) {
  std::vector<uint8_t> bytes(n);
  for (uint8_t& b : bytes) b = static_cast<uint8_t>(rng());
  return bytes;
}

void write_file(const std::string& path, const std::vector<uint8_t>& bytes) {
  std::ofstream out(path, std::ios::binary);
  out.write(reinterpret_cast<const char*>(bytes.data()), static_cast<std::streamsize>(bytes.size()));
  if (!out) throw CompileError("cannot write " + path);
}

std::vector<uint8_t> read_file(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  return std::vector<uint8_t>((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
}

// --cluster-weights: the weights clustered to K values per channel, kept as palettes in both runs.
void with_palettes(CompileCommandOptions& c, const Options& o) {
  if (o.cluster == 0) return;
  c.compile.cluster_values = o.cluster;
  c.compress_weights = "lossless";
}

// The model compiles for the reference target and calls one of the kernels under test.
bool exercises(const std::vector<uint8_t>& model, const Options& o) {
  CompileCommandOptions c;
  c.target = o.target;
  c.optimize = o.optimize;
  with_palettes(c, o);
  resolve_compile_options(c);
  try {
    const CompiledModel compiled = compile_model(model, c.compile);
    for (const KernelCall& call : compiled.calls) {
      if (std::find(o.kernels.begin(), o.kernels.end(), call.info().stem) != o.kernels.end()) return true;
    }
  } catch (const CompileError&) {
  }
  return false;
}

// One input set's files appended to `files`: floats drawn in [-4, 4] (random bit patterns would be mostly NaN
// and huge), other types random bytes.
void write_input_set(std::mt19937& rng, const Graph& graph, const std::string& dir, std::vector<std::string>& files) {
  for (int id : graph.inputs) {
    const Tensor& t = graph.tensor(id);
    std::vector<uint8_t> bytes = random_bytes(rng, static_cast<size_t>(t.byte_size()));
    if (t.dtype == DType::kFloat32) {
      std::uniform_real_distribution<float> value(-4.0f, 4.0f);
      for (size_t i = 0; i + 4 <= bytes.size(); i += 4) {
        const float f = value(rng);
        std::memcpy(&bytes[i], &f, 4);
      }
    }
    files.push_back(dir + "/input" + std::to_string(files.size()) + ".bin");
    write_file(files.back(), bytes);
  }
}

// Random inputs, their files returned. A model with state (persistent tensors: LSTM, SVDF, variables) takes
// kStatefulRuns input sets through one context (run --batch, *sets of them), so that the state and ring positions
// the kernels leave are compared through the later runs' outputs too.
constexpr int kStatefulRuns = 3;
std::vector<std::string> write_inputs(std::mt19937& rng, const std::vector<uint8_t>& model, const Options& o,
                                      const std::string& dir, int* sets) {
  CompileCommandOptions c;
  c.target = o.target;
  resolve_compile_options(c);
  const CompiledModel compiled = compile_model(model, c.compile);
  const bool stateful = std::any_of(compiled.graph.tensors.begin(), compiled.graph.tensors.end(),
                                    [](const Tensor& t) { return t.is_persistent; });
  std::vector<std::string> files;
  *sets = stateful ? kStatefulRuns : 1;
  for (int set = 0; set < *sets; ++set) write_input_set(rng, compiled.graph, dir, files);
  return files;
}

void run(const std::string& model, const std::vector<std::string>& inputs, bool batch, const std::string& target,
         const Options& o, const std::vector<std::string>& sources, const std::string& out) {
  RunCommandOptions r;
  r.base.model_path = model;
  r.base.target = target;
  r.base.optimize = o.optimize;
  with_palettes(r.base, o);
  r.inputs = inputs;
  r.output_dir = out;
  r.kernel_sources = sources;
  r.batch = batch;
  r.quiet = true;
  if (run_command(r) != 0) throw CompileError("the run of " + model + " failed");
}

// Empty when every output file of the two runs is identical, else which one differs and where.
std::string set_difference(const std::string& reference, const std::string& candidate) {
  for (int i = 0; fs::exists(reference + "/output" + std::to_string(i) + ".bin"); ++i) {
    const std::string name = "/output" + std::to_string(i) + ".bin";
    const std::vector<uint8_t> a = read_file(reference + name), b = read_file(candidate + name);
    if (a.size() != b.size()) return "output " + std::to_string(i) + " sizes differ";
    for (size_t k = 0; k < a.size(); ++k) {
      if (a[k] != b[k]) {
        return "output " + std::to_string(i) + " byte " + std::to_string(k) + ": portable " + std::to_string(a[k]) +
               ", candidate " + std::to_string(b[k]);
      }
    }
  }
  return "";
}

// set_difference of each input set's outputs (`sets` > 1: the --batch runs' numbered folders).
std::string difference(const std::string& reference, const std::string& candidate, int sets) {
  if (sets == 1) return set_difference(reference, candidate);
  for (int k = 0; k < sets; ++k) {
    const std::string diff = set_difference(reference + "/" + std::to_string(k), candidate + "/" + std::to_string(k));
    if (!diff.empty()) return "run " + std::to_string(k) + " of " + std::to_string(sets) + ": " + diff;
  }
  return "";
}

// --target with its instruction-set extensions turned off, so that every kernel is the portable one.
std::string portable_target(const std::string& target) {
  if (target.empty()) return target;
  const Target t = parse_target(target);
  if (t.is_generic() || !t.dsp) return target;
  const bool fpu_off = t.fpu != parse_target("c -mcpu=" + t.cpu).fpu;
  return "c -mcpu=" + t.cpu + "+nodsp" + (fpu_off ? "+nofp" : "");
}

// One accepted model through both runs; returns the difference, or "".
std::string compare_case(std::mt19937& rng, const std::vector<uint8_t>& model, const Options& o, int index) {
  const std::string dir = o.work + "/case" + std::to_string(index);
  fs::create_directories(dir);
  write_file(dir + "/model.tflite", model);
  int sets = 1;
  const std::vector<std::string> inputs = write_inputs(rng, model, o, dir, &sets);
  run(dir + "/model.tflite", inputs, sets > 1, portable_target(o.target), o, {}, dir + "/portable");
  run(dir + "/model.tflite", inputs, sets > 1, o.candidate_target.empty() ? o.target : o.candidate_target, o,
      o.kernel_sources, dir + "/candidate");
  return difference(dir + "/portable", dir + "/candidate", sets);
}

// A random model: from a short recipe, or (`focus`) one operator's from a long one, whose bytes then fill its
// weights as well as its choices; `wide`: of wide shape `index`, whose weights take a longer one;
// `sixteen_by_eight`: a focused weighted operator in 16x8, or an ADD, SUB or MUL in int16 (--int16).
std::vector<uint8_t> random_model(std::mt19937& rng, const tflite_test::ListedOp* focus, bool wide, int index,
                                  bool sixteen_by_eight) {
  if (focus == nullptr) {
    const std::vector<uint8_t> recipe = random_bytes(rng, 64 + rng() % 192);
    return fuzz::model_from_recipe(recipe.data(), recipe.size());
  }
  const std::vector<uint8_t> recipe = random_bytes(rng, wide ? 65536 : 16384);
  return wide ? fuzz::wide_model_from_recipe(*focus, index, recipe.data(), recipe.size())
              : fuzz::focused_model_from_recipe(*focus, recipe.data(), recipe.size(), sixteen_by_eight);
}

int differential(const Options& o) {
  std::mt19937 rng(o.seed);
  const tflite_test::ListedOp* focus = o.focus.empty() ? nullptr : fuzz::listed_op_named(o.focus);
  if (!o.focus.empty() && focus == nullptr) throw CompileError("--focus: no operator " + o.focus);
  if (o.wide && (focus == nullptr || fuzz::wide_shape_count(*focus) == 0)) {
    throw CompileError("--wide: wide shapes exist for --focus CONV_2D, FULLY_CONNECTED, UNIDIRECTIONAL_SEQUENCE_LSTM and SVDF");
  }
  const int cases = o.wide && o.cases == 0 ? fuzz::wide_shape_count(*focus) : o.cases;
  int found = 0;
  for (int attempt = 0; attempt < o.max_tries && found < cases; ++attempt) {
    const std::vector<uint8_t> model = random_model(rng, focus, o.wide, found, o.int16);
    if (!exercises(model, o)) continue;
    const std::string diff = compare_case(rng, model, o, found);
    if (!diff.empty()) {
      std::printf("DIFFERENT in case %d (%s/case%d): %s\n", found, o.work.c_str(), found, diff.c_str());
      return 1;
    }
    if (!o.keep) fs::remove_all(o.work + "/case" + std::to_string(found));
    ++found;
  }
  std::printf("%d of %d cases identical (%s)\n", found, cases, found == cases ? "pass" : "too few cases found");
  return found == cases ? 0 : 2;
}

}  // namespace

int main(int argc, char** argv) {
  Options o;
  CLI::App app{"microaot_differential: a kernel implementation against the portable one on random models"};
  app.add_option("--kernel", o.kernels, "kernel stem under test (kernel_list.def), e.g. add_s8")->required();
  app.add_option("--cases", o.cases, "models that exercise the kernel to compare (default 20; --wide: one per shape)");
  app.add_option("--max-tries", o.max_tries, "random models to draw at most (default 20000)");
  app.add_option("--seed", o.seed, "random seed (default 1)");
  app.add_option("--target", o.target, "the reference target (default generic C on the host)");
  app.add_option("--candidate-target", o.candidate_target, "the candidate's target (default --target)");
  app.add_option("--kernel-source", o.kernel_sources, "PATH=FILE: the candidate's kernel file (microaot run)");
  app.add_option("--optimize", o.optimize, "speed (default), balanced or size, as microaot's, for both runs");
  app.add_option("--focus", o.focus, "one operator per model (a TFLite builtin name, e.g. DEPTHWISE_CONV_2D)");
  app.add_option("--cluster-weights", o.cluster,
                 "K: both runs' weights clustered to K values per channel and kept as palettes (the palette kernels)");
  app.add_flag("--wide", o.wide, "with --focus CONV_2D, FULLY_CONNECTED, UNIDIRECTIONAL_SEQUENCE_LSTM or SVDF: case k takes wide layer shape k of a list");
  app.add_flag("--int16", o.int16,
               "with --focus CONV_2D, DEPTHWISE_CONV_2D or FULLY_CONNECTED: the layer in 16x8 (int16 activations); ADD, "
               "SUB or MUL: in int16");
  app.add_flag("--keep", o.keep, "keep every case's folder (model, inputs, outputs), not only a differing one's");
  app.add_option("--work", o.work, "folder for the models, inputs and outputs (default differential-work)");
  CLI11_PARSE(app, argc, argv);
  if (o.wide && app.count("--cases") == 0) o.cases = 0;
  try {
    return differential(o);
  } catch (const std::exception& e) {
    std::fprintf(stderr, "microaot_differential: %s\n", e.what());
    return 2;
  }
}
