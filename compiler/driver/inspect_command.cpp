// `microaot inspect`: what is in a model — operators, tensors, shapes, quantization, MACs, parameter bytes;
// with --supported, the operator x type table microaot compiles.
// It works on any model the flatbuffer checks accept: operators microaot cannot compile are listed by
// name and code, and the reasons it cannot compile the model are printed at the end (exit status 0).
#include <algorithm>
#include <iomanip>
#include <iostream>
#include <optional>
#include <sstream>

#include "driver/blob_firmware.h"
#include "driver/commands.h"
#include "driver/supported_operators.h"
#include "frontend/builtin_names.h"
#include "frontend/model_reader.h"
#include "ir/ir_dump.h"
#include "ops/op_handler.h"
#include "support/diagnostics.h"

namespace microaot {

namespace {
std::string quant_text(const Quantization& q) {
  if (q.empty()) return "-";
  std::ostringstream out;
  out << "scale " << q.scale[0] << " zp " << q.zero_point[0];
  if (q.per_channel()) out << " (+" << q.scale.size() - 1 << " channels, axis " << q.axis << ")";
  return out.str();
}

void print_tensors(const ModelOutline& m) {
  std::cout << "tensors:\n";
  for (size_t id = 0; id < m.tensors.size(); ++id) {
    const ModelOutline::Tensor& t = m.tensors[id];
    std::cout << "  " << std::setw(4) << id << "  " << std::left << std::setw(8) << t.type << std::setw(20)
              << format_shape(t.shape) << std::setw(10)
              << (t.constant_bytes > 0 ? std::to_string(t.constant_bytes) + " B" : "-") << std::setw(36)
              << quant_text(t.quant) << std::right << " " << t.name << "\n";
  }
}

// Parameter bytes of op `index` (its constant inputs), and its MACs when the strict read has the op and
// the op's checks pass: the sum over the IR ops made from it (one for a .tflite operator, one or more for an
// ONNX node: an LSTM unrolls into many).
struct OpFigures {
  std::optional<int64_t> macs;
  int64_t params = 0;
  bool folded = false;  // no IR op of its own: fused into a neighbour (BatchNormalization, Relu) or a constant
};

OpFigures figures_of(const ModelOutline& m, const std::optional<Graph>& g, size_t index,
                     std::vector<std::string>& problems) {
  OpFigures f;
  for (int id : m.ops[index].inputs) {
    if (id >= 0 && static_cast<size_t>(id) < m.tensors.size()) f.params += static_cast<int64_t>(m.tensors[id].constant_bytes);
  }
  if (!g) return f;
  f.folded = std::none_of(g->ops.begin(), g->ops.end(), [&](const Op& op) { return op.source_index == static_cast<int>(index); });
  for (const Op& op : g->ops) {
    if (op.source_index != static_cast<int>(index)) continue;
    try {
      const OpHandler& handler = op_handler(op.kind);
      handler.check(*g, op);
      f.macs = f.macs.value_or(0) + handler.macs(*g, op);
    } catch (const CompileError& e) {
      problems.push_back(e.what());
      return {std::nullopt, f.params};
    }
  }
  return f;
}

// "3:conv1/Relu[1, 8, 8, 8]": a tensor by index and, unless it is a constant (named in the tensor table), by
// name, so that the ops read as a data flow; `shapes` adds the shape (outputs), `types` the type (model I/O).
std::string ids_text(const ModelOutline& m, const std::vector<int>& ids, bool shapes, bool types = false) {
  std::string text;
  for (int id : ids) {
    text += (id < 0 ? std::string("-") : std::to_string(id));
    if (id >= 0 && static_cast<size_t>(id) < m.tensors.size()) {
      const ModelOutline::Tensor& t = m.tensors[static_cast<size_t>(id)];
      if (t.constant_bytes == 0 && !t.name.empty()) text += ":" + t.name;
      if (types) text += " " + t.type;
      if (shapes || types) text += format_shape(t.shape);
    }
    text += " ";
  }
  return text;
}

void print_ops(const ModelOutline& m, const std::optional<Graph>& g, std::vector<std::string>& problems,
               int64_t& total_macs, int64_t& total_params) {
  std::cout << "ops:\n";
  for (size_t i = 0; i < m.ops.size(); ++i) {
    const ModelOutline::Operator& op = m.ops[i];
    const OpFigures f = figures_of(m, g, i, problems);
    total_macs += f.macs.value_or(0);
    total_params += f.params;
    const std::string macs = op.code == kTfliteCustomCode ? "custom: needs --custom-op"
                             : !op.compilable             ? "unsupported"
                             : f.macs                     ? std::to_string(*f.macs) + " MACs"
                             : f.folded                   ? "folded"
                                                          : "- MACs";
    std::cout << "  " << std::setw(4) << i << "  " << std::left << std::setw(20) << op.name << "v" << std::setw(3)
              << op.version << std::right << std::setw(17) << macs << std::setw(10) << f.params << " B  "
              << ids_text(m, op.inputs, false) << "-> " << ids_text(m, op.outputs, true)
              << (op.compilable ? "" : "(code " + std::to_string(op.code) + ")") << "\n";
  }
}
}  // namespace

int inspect_command(const std::string& model_path, const std::string& firmware_dir) {
  const std::vector<uint8_t> bytes = read_binary_file(model_path);
  if (is_blob_bytes(bytes)) return inspect_blob(model_path, bytes, firmware_dir);
  if (!firmware_dir.empty()) throw UsageError("--firmware checks a model blob (compile --blob-only), not a .tflite model");
  const ModelOutline m = outline_model(bytes);
  std::optional<Graph> g;
  std::vector<std::string> problems;
  try {
    g = read_model(bytes);
  } catch (const CompileError& e) {
    problems.push_back(e.what());
  }
  std::cout << "model: " << model_path << "\n";
  if (!m.description.empty()) std::cout << "description: " << m.description << "\n";
  std::cout << "inputs: " << ids_text(m, m.inputs, false, true) << "\noutputs: " << ids_text(m, m.outputs, false, true)
            << "\n\n";
  int64_t total_macs = 0;
  int64_t total_params = 0;
  print_ops(m, g, problems, total_macs, total_params);
  std::cout << "\n";
  print_tensors(m);
  std::cout << "\ntotal: " << m.ops.size() << " ops, " << total_macs << " MACs, " << total_params
            << " parameter bytes\n";
  if (!problems.empty()) std::cout << "\nmicroaot cannot compile this model:\n";
  for (std::string problem : problems) {
    for (size_t at = problem.find('\n'); at != std::string::npos; at = problem.find('\n', at + 3)) problem.insert(at + 1, "  ");
    std::cout << "  " << problem << "\n";
  }
  return 0;
}

int supported_command() {
  std::cout << supported_operators_markdown();
  return 0;
}

}  // namespace microaot
