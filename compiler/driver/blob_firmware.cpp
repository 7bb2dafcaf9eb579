#include "driver/blob_firmware.h"

#include <algorithm>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <set>

#include <nlohmann/json.hpp>

#include "codegen/emit.h"
#include "codegen/graph_check.h"
#include "driver/commands.h"
#include "ir/ir_dump.h"
#include "microaot/graph.h"
#include "support/diagnostics.h"
#include "support/version.h"

namespace microaot {

namespace {
uint32_t word(const std::vector<uint8_t>& bytes, size_t index) {
  uint32_t value = 0;
  for (int i = 0; i < 4; ++i) value |= static_cast<uint32_t>(bytes[4 * index + i]) << (8 * i);
  return value;
}

std::string kernel_name(int id) {
  const KernelRegistry& registry = kernel_registry();
  if (id < 0 || id >= static_cast<int>(registry.kernels.size())) {
    return "(unknown to microaot " MICROAOT_VERSION ")";
  }
  return registry.by_id(id).symbol;
}

bool links(const FirmwareFolder& firmware, int id) {
  return std::binary_search(firmware.kernels.begin(), firmware.kernels.end(), id);
}

std::string comma_list(const std::set<std::string>& names) {
  std::string text;
  for (const std::string& name : names) text += (text.empty() ? "" : ",") + name;
  return text;
}

nlohmann::json read_report(const std::string& dir) {
  const std::filesystem::path path = std::filesystem::path(dir) / "report.json";
  std::error_code ec;
  if (!std::filesystem::is_directory(dir, ec)) throw CompileError("firmware folder '" + dir + "' is not a folder");
  std::ifstream in(path);
  if (!in) {
    throw CompileError("'" + dir + "' has no report.json: give the folder `microaot compile --executor graph -o " +
                       dir + "` wrote for the firmware");
  }
  try {
    return nlohmann::json::parse(in);
  } catch (const nlohmann::json::exception&) {
    throw CompileError("'" + path.string() + "' is not JSON microaot wrote");
  }
}
// One line per kernel the steps (their kernel ids in step order, -1 for a user's function) need and the
// firmware does not link, with the steps that need it; `names` gets the kernels' names.
std::string missing_kernel_lines(const std::vector<int>& step_kernels, const FirmwareFolder& firmware,
                                 std::set<std::string>& names) {
  std::string lines;
  std::set<int> seen;
  for (int id : step_kernels) {
    if (id < 0 || links(firmware, id) || !seen.insert(id).second) continue;
    std::string steps;
    for (size_t step = 0; step < step_kernels.size(); ++step) {
      if (step_kernels[step] == id) steps += (steps.empty() ? "" : ", ") + std::to_string(step);
    }
    lines += "  kernel " + std::to_string(id) + " " + kernel_name(id) + " (step" +
             (steps.find(',') == std::string::npos ? " " : "s ") + steps + ")\n";
    names.insert(kernel_name(id));
  }
  return lines;
}
}  // namespace

FirmwareFolder read_firmware_folder(const std::string& dir) {
  const nlohmann::json report = read_report(dir);
  if (report.value("executor", "") != "graph") {
    throw CompileError("'" + dir + "' holds an AOT library (--executor aot): its firmware runs no blob; compile the "
                       "firmware with --executor graph");
  }
  if (!report.contains("firmware")) {
    throw CompileError("'" + dir + "' was written by a microaot that did not record the kernels it links: compile "
                       "the firmware folder again with this one");
  }
  try {
    const nlohmann::json& f = report.at("firmware");
    FirmwareFolder firmware{dir, f.at("blob_version").get<uint32_t>(), f.at("target").get<std::string>(),
                            f.at("optimize").get<std::string>(), f.at("inputs").get<uint32_t>(), {}};
    for (const nlohmann::json& k : f.at("kernels")) firmware.kernels.push_back(k.at("id").get<int>());
    std::sort(firmware.kernels.begin(), firmware.kernels.end());
    return firmware;
  } catch (const nlohmann::json::exception&) {
    throw CompileError("'" + dir + "/report.json' has no readable \"firmware\" record: compile the firmware folder "
                       "again");
  }
}

void take_firmware_settings(CompileCommandOptions& options, const FirmwareFolder& firmware) {
  if (!options.target.empty() || !options.target_c_mcpu.empty()) {
    const std::string given = options.target.empty() ? "c -mcpu=" + options.target_c_mcpu : options.target;
    if (target_flag(parse_target(given)) != firmware.target) {
      throw UsageError("--target '" + given + "' differs from the firmware's ('" + firmware.target + "', " +
                       firmware.dir + "/report.json): leave --target out with --for");
    }
  }
  if (options.optimize != "speed" && options.optimize != firmware.optimize) {
    throw UsageError("--optimize " + options.optimize + " differs from the firmware's (" + firmware.optimize +
                     "): leave --optimize out with --for");
  }
  options.target = firmware.target;
  options.target_c_mcpu.clear();
  options.optimize = firmware.optimize;
}

void check_model_fits_firmware(const CompiledModel& model, const FirmwareFolder& firmware) {
  if (firmware.blob_version != MICROAOT_BLOB_VERSION) {
    throw CompileError("the firmware in '" + firmware.dir + "' reads blob version " +
                       std::to_string(firmware.blob_version) + ", this microaot writes version " +
                       std::to_string(MICROAOT_BLOB_VERSION) + ": use the microaot that built the firmware, or "
                       "rebuild the firmware");
  }
  std::vector<int> step_kernels;
  for (const KernelCall& call : model.calls) step_kernels.push_back(call.custom ? -1 : call.kernel);
  std::set<std::string> missing;
  const std::string lines = missing_kernel_lines(step_kernels, firmware, missing);
  if (missing.empty()) return;
  throw CompileError("the firmware in '" + firmware.dir + "' (--target '" + firmware.target + "' --optimize " +
                     firmware.optimize + ") does not link kernels this model needs:\n" + lines +
                     "rebuild the firmware with --link-kernels " + comma_list(missing) + " added");
}

bool is_blob_bytes(const std::vector<uint8_t>& bytes) {
  return bytes.size() >= 4 && word(bytes, MICROAOT_BLOB_W_MAGIC) == MICROAOT_BLOB_MAGIC;
}

namespace {
// The I/O descriptors of a blob the loader accepted: bytes and arena offset of each.
void print_io(const std::vector<uint8_t>& bytes, const char* what, uint32_t first, uint32_t count) {
  const uint32_t at = word(bytes, MICROAOT_BLOB_W_IO_AT) / 4 + 3 * first;
  std::printf("%s:\n", what);
  for (uint32_t i = 0; i < count; ++i) {
    std::printf("  %4u  %u bytes at arena offset %u\n", i, word(bytes, at + 3 * i + 1), word(bytes, at + 3 * i));
  }
}

// Each step's kernel id, in step order (a blob the loader accepted: its step table lies inside it).
std::vector<int> step_kernels(const std::vector<uint8_t>& bytes) {
  std::vector<int> ids;
  const uint32_t steps_at = word(bytes, MICROAOT_BLOB_W_STEPS_AT) / 4;
  for (uint32_t step = 0; step < word(bytes, MICROAOT_BLOB_W_NUM_STEPS); ++step) {
    ids.push_back(static_cast<int>(word(bytes, steps_at + MICROAOT_BLOB_STEP_WORDS * step + MICROAOT_BLOB_S_KERNEL)));
  }
  return ids;
}

void print_blob(const std::string& path, const std::vector<uint8_t>& bytes, const std::vector<int>& kernels) {
  const uint32_t inputs = word(bytes, MICROAOT_BLOB_W_NUM_INPUTS), outputs = word(bytes, MICROAOT_BLOB_W_NUM_OUTPUTS);
  std::printf("blob: %s\nversion: %u\nbytes: %zu (constants %u, description %zu)\n", path.c_str(),
              word(bytes, MICROAOT_BLOB_W_VERSION), bytes.size(), word(bytes, MICROAOT_BLOB_W_CONSTANTS_BYTES),
              bytes.size() - word(bytes, MICROAOT_BLOB_W_CONSTANTS_BYTES));
  std::printf("arena: %u bytes, %u-byte aligned (init_blob's arena, or the firmware's static one if as large)\n",
              word(bytes, MICROAOT_BLOB_W_ARENA_HEADER) + word(bytes, MICROAOT_BLOB_W_ARENA_BYTES),
              word(bytes, MICROAOT_BLOB_W_ARENA_ALIGN));
  if (word(bytes, MICROAOT_BLOB_W_STATE_BYTES) != 0) {
    std::printf("state: %u bytes kept from run to run\n", word(bytes, MICROAOT_BLOB_W_STATE_BYTES));
  }
  print_io(bytes, "inputs", 0, inputs);
  print_io(bytes, "outputs", inputs, outputs);
  std::printf("steps: %zu\n", kernels.size());
  for (size_t step = 0; step < kernels.size(); ++step) {
    std::printf("  %4zu  kernel %d %s\n", step, kernels[step], kernel_name(kernels[step]).c_str());
  }
  const std::set<int> needed(kernels.begin(), kernels.end());
  std::printf("kernels needed: %zu\n", needed.size());
  for (int id : needed) std::printf("  %4d  %s\n", id, kernel_name(id).c_str());
}

// The firmware's own loader over the blob, with the firmware's kernels: 0 when it accepts it.
int check_against(const std::vector<uint8_t>& bytes, const std::vector<int>& kernels, const FirmwareFolder& firmware) {
  std::printf("\nfirmware: %s (--target '%s' --optimize %s, blob version %u, %zu kernels linked)\n",
              firmware.dir.c_str(), firmware.target.c_str(), firmware.optimize.c_str(), firmware.blob_version,
              firmware.kernels.size());
  const BlobCheck check = check_blob(bytes, firmware.inputs, &firmware.kernels);
  if (check.init == MICROAOT_STATUS_OK || check.init == MICROAOT_STATUS_ARENA_TOO_SMALL) {  // the arena: given at init
    std::printf("init: ok (the firmware's loader accepts this blob)\n");
    return 0;
  }
  std::printf("init: %s\n", microaot_status_string(check.init));
  std::set<std::string> missing;
  const std::string lines = missing_kernel_lines(kernels, firmware, missing);
  if (!missing.empty()) std::printf("the firmware does not link:\n%s", lines.c_str());
  if (!missing.empty()) {
    std::printf("build the blob for this firmware (compile --executor graph --blob-only --for %s), or rebuild the "
                "firmware with --link-kernels %s added\n", firmware.dir.c_str(), comma_list(missing).c_str());
  } else if (word(bytes, MICROAOT_BLOB_W_NUM_INPUTS) > firmware.inputs) {
    std::printf("the blob has %u inputs, the firmware's contexts hold %u: build the firmware with NAME_MAX_INPUTS "
                "defined larger\n", word(bytes, MICROAOT_BLOB_W_NUM_INPUTS), firmware.inputs);
  }
  return 1;
}
}  // namespace

int inspect_blob(const std::string& path, const std::vector<uint8_t>& bytes, const std::string& firmware_dir) {
  const BlobCheck check = check_blob(bytes, 255);  // every kernel this microaot has, the most inputs a blob takes
  if (check.init == MICROAOT_STATUS_BAD_MODEL || bytes.size() < 4 * MICROAOT_BLOB_HEADER_WORDS) {
    throw CompileError("'" + path + "' is a corrupt model blob (the loader's checks refuse it: magic, size, "
                       "checksum, offsets or records); compile it again");
  }
  if (word(bytes, MICROAOT_BLOB_W_VERSION) != MICROAOT_BLOB_VERSION) {
    throw CompileError("'" + path + "' is a model blob of version " + std::to_string(word(bytes, MICROAOT_BLOB_W_VERSION)) +
                       "; microaot " MICROAOT_VERSION " reads version " + std::to_string(MICROAOT_BLOB_VERSION));
  }
  if (check.init == MICROAOT_STATUS_MISSING_KERNEL) {
    throw CompileError("'" + path + "' needs kernel id " + std::to_string(check.missing_kernel) +
                       ", which microaot " MICROAOT_VERSION " does not have: a blob from another microaot version?");
  }
  if (check.init != MICROAOT_STATUS_OK && check.init != MICROAOT_STATUS_ARENA_TOO_SMALL) {  // too large to try
    throw CompileError("'" + path + "' is refused by the loader: " + microaot_status_string(check.init));
  }
  const std::vector<int> kernels = step_kernels(bytes);
  print_blob(path, bytes, kernels);
  return firmware_dir.empty() ? 0 : check_against(bytes, kernels, read_firmware_folder(firmware_dir));
}

}  // namespace microaot
