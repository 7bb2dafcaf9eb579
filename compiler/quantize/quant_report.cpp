#include "quantize/quant_report.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <nlohmann/json.hpp>

#include "quantize/quant_params.h"

namespace microaot {

namespace {
size_t argmax(const std::vector<float>& v, size_t from, size_t count) {
  return static_cast<size_t>(std::max_element(v.begin() + static_cast<std::ptrdiff_t>(from),
                                              v.begin() + static_cast<std::ptrdiff_t>(from + count)) -
                             v.begin());
}

std::string db(double value) {
  if (std::isinf(value)) return value > 0 ? "exact" : "-inf";
  char text[32];
  std::snprintf(text, sizeof text, "%.2f", value);
  return text;
}

nlohmann::json db_json(double value) {
  if (std::isinf(value)) return value > 0 ? nlohmann::json("exact") : nlohmann::json("-inf");
  return std::round(value * 100.0) / 100.0;
}
}  // namespace

OutputError compare_output(const std::vector<std::vector<float>>& ref, const std::vector<std::vector<float>>& got,
                           int last_dim) {
  OutputError e;
  std::vector<float> all_ref, all_got;
  for (size_t s = 0; s < ref.size(); ++s) {
    all_ref.insert(all_ref.end(), ref[s].begin(), ref[s].end());
    all_got.insert(all_got.end(), got[s].begin(), got[s].end());
    for (size_t i = 0; i < ref[s].size(); ++i) {
      e.max_abs_error = std::max(e.max_abs_error, std::fabs(static_cast<double>(ref[s][i]) - got[s][i]));
    }
    const size_t width = static_cast<size_t>(last_dim);
    for (size_t row = 0; last_dim > 1 && (row + 1) * width <= ref[s].size(); ++row) {
      ++e.rows;
      e.top1_agree += argmax(ref[s], row * width, width) == argmax(got[s], row * width, width) ? 1 : 0;
    }
  }
  e.sqnr_db = sqnr_db(all_ref, all_got);
  return e;
}

std::string report_text(const QuantReport& r) {
  std::string body = "activations " + r.activations + ", method " + r.method + ", weights " + r.weights + ", input " +
                     r.input_type + ", output " + r.output_type + ", " + std::to_string(r.samples) +
                     " calibration sample(s)\n";
  body += "bias correction " + r.bias_correction + ", cross-layer equalisation: " + std::to_string(r.equalized_pairs) +
          " depthwise -> conv pair(s)\n\n";
  if (!r.kept_float.empty()) {
    body += "kept float32 (no int8 form in microaot quantize):";
    for (const std::string& op : r.kept_float) body += " " + op + ";";
    body += "\n\n";
  }
  if (r.activations == "mixed") {
    char line[256];
    std::snprintf(line, sizeof line, "mixed: target %.2f dB; %zu layer(s) below it in the all-int8 model kept int16; "
                  "arena %lld bytes all-int8, %lld bytes mixed (%+lld)\n", r.target_sqnr_db, r.kept_int16.size(),
                  r.arena_int8, r.arena_mixed, r.arena_mixed - r.arena_int8);
    body += line;
    for (const std::string& layer : r.kept_int16) body += "  int16: " + layer + "\n";
    body += "\n";
  }
  return errors_report_text(kReportTextHeader, r.model, r.output, body,
                            "SQNR of each quantized activation (dequantized) against the float model's, over the "
                            "calibration samples",
                            r.layers, r.outputs);
}

std::string report_json(const QuantReport& r) {
  nlohmann::json fields = {{"model", r.model},
                           {"output", r.output},
                           {"method", r.method},
                           {"weights", r.weights},
                           {"activations", r.activations},
                           {"input_type", r.input_type},
                           {"output_type", r.output_type},
                           {"calibration_samples", r.samples},
                           {"kept_float", r.kept_float},
                           {"bias_correction", r.bias_correction},
                           {"equalized_pairs", r.equalized_pairs}};
  if (r.activations == "mixed") {
    fields["mixed"] = {{"target_sqnr_db", r.target_sqnr_db}, {"kept_int16", r.kept_int16},
                       {"arena_bytes_int8", r.arena_int8}, {"arena_bytes_mixed", r.arena_mixed}};
  }
  return errors_report_json(kReportJsonKey, fields, r.layers, r.outputs);
}

std::string errors_report_text(const char* header, const std::string& model, const std::string& output,
                               const std::string& body, const std::string& heading,
                               const std::vector<LayerError>& layers, const std::vector<OutputError>& outputs) {
  return std::string(header) + ": " + model + " -> " + output + "\n" + body + errors_text(heading, layers, outputs);
}

std::string errors_report_json(const char* key, const nlohmann::json& fields, const std::vector<LayerError>& layers,
                               const std::vector<OutputError>& outputs) {
  nlohmann::json j = fields;
  j[key] = 1;
  add_errors_json(j, layers, outputs);
  return j.dump(2) + "\n";
}

std::string errors_text(const std::string& heading, const std::vector<LayerError>& layers,
                        const std::vector<OutputError>& outputs) {
  std::string out = heading + "\n";
  char line[512];
  std::snprintf(line, sizeof line, "%-6s %-28s %-5s %12s %5s %9s  %s\n", "tensor", "operator", "type", "scale", "zp",
                "SQNR dB", "name");
  out += line;
  for (const LayerError& l : layers) {
    std::snprintf(line, sizeof line, "%-6d %-28s %-5s %12.6g %5d %9s  %s\n", l.tensor, l.op.c_str(), l.type.c_str(),
                  static_cast<double>(l.scale), l.zero_point, db(l.sqnr_db).c_str(), l.name.c_str());
    out += line;
  }
  out += "\nOutputs\n";
  for (const OutputError& o : outputs) {
    std::snprintf(line, sizeof line, "  %s (tensor %d): SQNR %s dB, largest error %.6g", o.name.c_str(), o.tensor,
                  db(o.sqnr_db).c_str(), o.max_abs_error);
    out += line;
    if (o.rows > 0) out += ", top-1 agreement " + std::to_string(o.top1_agree) + "/" + std::to_string(o.rows);
    out += "\n";
  }
  return out;
}

void add_errors_json(nlohmann::json& j, const std::vector<LayerError>& layers, const std::vector<OutputError>& outputs) {
  j["layers"] = nlohmann::json::array();
  for (const LayerError& l : layers) {
    j["layers"].push_back({{"tensor", l.tensor}, {"name", l.name}, {"operator", l.op}, {"type", l.type}, {"scale", l.scale},
                           {"zero_point", l.zero_point}, {"sqnr_db", db_json(l.sqnr_db)}});
  }
  j["outputs"] = nlohmann::json::array();
  for (const OutputError& o : outputs) {
    nlohmann::json e = {{"tensor", o.tensor}, {"name", o.name}, {"sqnr_db", db_json(o.sqnr_db)},
                        {"max_abs_error", o.max_abs_error}};
    if (o.rows > 0) e["top1_agreement"] = {{"agree", o.top1_agree}, {"rows", o.rows}};
    j["outputs"].push_back(e);
  }
}

std::string output_summary(const OutputError& e) {
  char line[512];
  std::snprintf(line, sizeof line, "output '%s': SQNR %s dB, largest error %.6g", e.name.c_str(), db(e.sqnr_db).c_str(),
                e.max_abs_error);
  std::string text = line;
  if (e.rows > 0) text += ", top-1 agreement " + std::to_string(e.top1_agree) + "/" + std::to_string(e.rows);
  return text;
}

}  // namespace microaot
