// The error report of `compile --cluster-weights K --calibration SAMPLES` (NAME_clustered.report.txt and .json
// beside NAME_clustered.tflite): the weights each tensor's clustering changed, and, as the quantizer reports,
// the SQNR of each layer's output against the unclustered model's over the calibration samples, and per
// output the SQNR, largest error and top-1 agreement.
#pragma once

#include <string>
#include <vector>

#include "frontend/cluster_weights.h"
#include "quantize/quant_report.h"

namespace microaot {

struct ClusterReport {
  std::string model;            // the user's model
  std::string clustered_model;  // the rewritten .tflite's file name
  int values = 0;               // K
  size_t samples = 0;
  ClusteredModel weights;       // the tensors changed (its .tflite is not read here)
  std::vector<LayerError> layers;
  std::vector<OutputError> outputs;
};

constexpr const char* kClusterReportTextHeader = "microaot cluster report";
constexpr const char* kClusterReportJsonKey = "microaot_cluster_report";

std::string cluster_report_text(const ClusterReport& report);
std::string cluster_report_json(const ClusterReport& report);

}  // namespace microaot
