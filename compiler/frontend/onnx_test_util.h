// Test helper: ONNX graphs built with the protobuf classes (onnx_reader_test.cpp, onnx_qdq_test.cpp).
#pragma once

#include <string>
#include <vector>

#include "onnx/onnx_pb.h"

namespace microaot::onnx_test {

// A node of op type `op` named "<op>_<its position>", reading `in` and writing `out`.
inline onnx::NodeProto* add_node(onnx::GraphProto* g, const std::string& op, const std::vector<std::string>& in,
                                 const std::vector<std::string>& out) {
  onnx::NodeProto* n = g->add_node();
  n->set_op_type(op);
  n->set_name(op + "_" + std::to_string(g->node_size()));
  for (const std::string& s : in) n->add_input(s);
  for (const std::string& s : out) n->add_output(s);
  return n;
}

}  // namespace microaot::onnx_test
