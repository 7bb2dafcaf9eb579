#include "ir/ir_dump.h"

#include <sstream>

namespace microaot {

std::string format_shape(const std::vector<int32_t>& shape) {
  std::string text = "[";
  for (size_t i = 0; i < shape.size(); ++i) text += (i ? ", " : "") + std::to_string(shape[i]);
  return text + "]";
}

namespace {
void dump_tensor(std::ostringstream& out, const Graph& graph, int id) {
  const Tensor& t = graph.tensor(id);
  out << "  %" << id << " " << dtype_name(t.dtype) << format_shape(t.shape);
  if (t.is_constant) out << " const(" << t.data.size() << " B)";
  if (t.alias_of >= 0) out << " alias_of(%" << t.alias_of << ")";
  if (t.ring.position >= 0) {
    out << " ring_window(position %" << t.ring.position << ", " << t.ring.slots << " x " << t.ring.unit_bytes << " B)";
  }
  if (!t.quant.empty()) {
    out << " q(scale=" << t.quant.scale[0] << ", zp=" << t.quant.zero_point[0];
    if (t.quant.per_channel()) out << ", " << t.quant.scale.size() << " channels on axis " << t.quant.axis;
    out << ")";
  }
  out << " '" << t.name << "'\n";
}

void dump_ids(std::ostringstream& out, const std::vector<int>& ids) {
  for (size_t i = 0; i < ids.size(); ++i) {
    out << (i ? ", " : "");
    if (ids[i] == kNoTensor) {
      out << "none";
    } else {
      out << "%" << ids[i];
    }
  }
}
}  // namespace

std::string dump_ir(const Graph& graph) {
  std::ostringstream out;
  out << "tensors:\n";
  for (size_t id = 0; id < graph.tensors.size(); ++id) {
    if (!graph.tensors[id].is_dead) dump_tensor(out, graph, static_cast<int>(id));
  }
  out << "inputs: ";
  dump_ids(out, graph.inputs);
  out << "\noutputs: ";
  dump_ids(out, graph.outputs);
  out << "\nops:\n";
  for (const Op& op : graph.ops) {
    out << "  ";
    dump_ids(out, op.outputs);
    out << " = " << op_kind_name(op.kind) << "/v" << op.version << "(";
    dump_ids(out, op.inputs);
    out << ")  // op " << op.source_index << "\n";
  }
  return out.str();
}

}  // namespace microaot
