#include "quantize/cluster_report.h"

#include <nlohmann/json.hpp>

namespace microaot {

std::string cluster_report_text(const ClusterReport& r) {
  std::string out = std::string(kClusterReportTextHeader) + ": " + r.model + " -> " + r.clustered_model + "\n";
  out += "LOSSY: --cluster-weights " + std::to_string(r.values) + ", " + std::to_string(r.samples) +
         " calibration sample(s)\n\n";
  out += clustered_weights_text(r.weights, r.values) + "\n";
  out += errors_text("SQNR of each layer's output (dequantized) against the unclustered model's, over the "
                     "calibration samples",
                     r.layers, r.outputs);
  return out;
}

std::string cluster_report_json(const ClusterReport& r) {
  nlohmann::json j;
  j[kClusterReportJsonKey] = 1;
  j["model"] = r.model;
  j["clustered_model"] = r.clustered_model;
  j["values"] = r.values;
  j["calibration_samples"] = r.samples;
  j["weights"] = clustered_weights_json(r.weights);
  add_errors_json(j, r.layers, r.outputs);
  return j.dump(2) + "\n";
}

}  // namespace microaot
