// `compile --cluster-weights K --calibration SAMPLES`: the clustered model measured against the user's on the
// host, layer by layer, as `quantize` measures its model against the float one (quantize/cluster_report.h).
#pragma once

#include <cstdint>
#include <vector>

#include "compile/compile_model.h"
#include "driver/commands.h"
#include "quantize/cluster_report.h"

namespace microaot {

// Runs `original` (the user's .tflite) and `model`'s clustered rewrite on every calibration sample.
ClusterReport measure_clustering(const CompileCommandOptions& options, const std::vector<uint8_t>& original,
                                 const CompiledModel& model, const std::string& clustered_name);

}  // namespace microaot
