// `microaot inspect`: what is in a model — operators, tensors, shapes, quantization, MACs, parameter bytes.
#include <cstdio>
#include <iomanip>
#include <iostream>
#include <sstream>

#include "driver/commands.h"
#include "frontend/tflite_reader.h"
#include "ir/ir_dump.h"
#include "ops/op_handler.h"

namespace microaot {

namespace {
std::string quant_text(const Quantization& q) {
  if (q.empty()) return "-";
  std::ostringstream out;
  out << "scale " << q.scale[0] << " zp " << q.zero_point[0];
  if (q.per_channel()) out << " (+" << q.scale.size() - 1 << " channels, axis " << q.axis << ")";
  return out.str();
}

void print_tensors(const Graph& g) {
  std::cout << "tensors:\n";
  for (size_t id = 0; id < g.tensors.size(); ++id) {
    const Tensor& t = g.tensors[id];
    std::cout << "  " << std::setw(4) << id << "  " << std::left << std::setw(8) << dtype_name(t.dtype)
              << std::setw(20) << format_shape(t.shape) << std::setw(10)
              << (t.is_constant ? std::to_string(t.data.size()) + " B" : "-") << std::setw(36) << quant_text(t.quant)
              << std::right << " " << t.name << "\n";
  }
}

int64_t op_param_bytes(const Graph& g, const Op& op) {
  int64_t total = 0;
  for (int id : op.inputs) {
    if (id != kNoTensor && g.tensor(id).is_constant) total += g.tensor(id).byte_size();
  }
  return total;
}
}  // namespace

int inspect_command(const std::string& model_path) {
  const Graph g = read_tflite(read_binary_file(model_path));
  std::cout << "model: " << model_path << "\n";
  if (!g.description.empty()) std::cout << "description: " << g.description << "\n";
  std::cout << "inputs:";
  for (int id : g.inputs) std::cout << " " << id;
  std::cout << "\noutputs:";
  for (int id : g.outputs) std::cout << " " << id;
  std::cout << "\n\nops:\n";
  int64_t total_macs = 0;
  int64_t total_params = 0;
  for (const Op& op : g.ops) {
    const OpHandler& handler = op_handler(op.kind);
    handler.check(g, op);
    const int64_t macs = handler.macs(g, op);
    const int64_t params = op_param_bytes(g, op);
    total_macs += macs;
    total_params += params;
    std::cout << "  " << std::setw(4) << op.source_index << "  " << std::left << std::setw(20) << op_kind_name(op.kind)
              << "v" << std::setw(3) << op.version << std::right << std::setw(12) << macs << " MACs" << std::setw(10)
              << params << " B  ";
    for (int id : op.inputs) std::cout << (id == kNoTensor ? std::string("-") : std::to_string(id)) << " ";
    std::cout << "->";
    for (int id : op.outputs) std::cout << " " << id << format_shape(g.tensor(id).shape);
    std::cout << "\n";
  }
  std::cout << "\n";
  print_tensors(g);
  std::cout << "\ntotal: " << g.ops.size() << " ops, " << total_macs << " MACs, " << total_params
            << " parameter bytes\n";
  return 0;
}

}  // namespace microaot
