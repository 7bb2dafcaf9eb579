#include "quantize/cluster_report.h"

#include <nlohmann/json.hpp>

namespace microaot {

std::string cluster_report_text(const ClusterReport& r) {
  const std::string body = "LOSSY: --cluster-weights " + std::to_string(r.values) + ", " +
                           std::to_string(r.samples) + " calibration sample(s)\n\n" +
                           clustered_weights_text(r.weights, r.values) + "\n";
  return errors_report_text(kClusterReportTextHeader, r.model, r.clustered_model, body,
                            "SQNR of each layer's output (dequantized) against the unclustered model's, over the "
                            "calibration samples",
                            r.layers, r.outputs);
}

std::string cluster_report_json(const ClusterReport& r) {
  return errors_report_json(kClusterReportJsonKey,
                            {{"model", r.model},
                             {"clustered_model", r.clustered_model},
                             {"values", r.values},
                             {"calibration_samples", r.samples},
                             {"weights", clustered_weights_json(r.weights)}},
                            r.layers, r.outputs);
}

}  // namespace microaot
