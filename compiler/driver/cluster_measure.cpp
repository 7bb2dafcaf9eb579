#include "driver/cluster_measure.h"

#include "driver/model_runs.h"
#include "driver/output_dir.h"
#include "frontend/tflite_reader.h"

namespace microaot {

ClusterReport measure_clustering(const CompileCommandOptions& options, const std::vector<uint8_t>& original,
                                 const CompiledModel& model, const std::string& clustered_name) {
  const std::vector<uint8_t>& clustered = model.clustered.tflite;
  const Graph before = read_tflite(original, options.compile.custom_ops);
  const Graph after = read_tflite(clustered, options.compile.custom_ops);
  const std::vector<CalibrationSample> samples = read_calibration(options.calibration, input_specs(before));
  const HostRunSettings host{"", "", options.custom_ops, options.custom_sources};
  TempDir work;
  const std::vector<TensorValues> ref = run_and_dump(original, before, samples, host, work.path() + "/model");
  const std::vector<TensorValues> got = run_and_dump(clustered, after, samples, host, work.path() + "/clustered");
  RunComparison errors = compare_runs(before, after, ref, got);
  return {options.model_path, clustered_name,          model.options.cluster_values, samples.size(), model.clustered,
          std::move(errors.layers), std::move(errors.outputs)};
}

}  // namespace microaot
