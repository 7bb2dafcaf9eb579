// The one place `microaot quantize` reads its float model: every format that becomes a Graph plugs in here
// (.tflite, and .onnx through the ONNX frontend). The rest of quantize only sees the Graph, and calibration
// runs that Graph written back as a .tflite (tflite_writer.h), so a new format needs nothing else.
#pragma once

#include <string>

#include "ir/graph.h"

namespace microaot {

// Throws CompileError for an unreadable file or a format quantize does not read yet (named).
Graph read_float_model(const std::string& path);

}  // namespace microaot
