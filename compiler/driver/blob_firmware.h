// A graph blob and the firmware it is for: a graph firmware folder's report.json records what the firmware
// accepts (the blob version it reads, the --target and --optimize that chose its kernels, the kernels it
// links), so that `compile --blob-only --for DIR` builds a blob it runs and `inspect BLOB --firmware DIR`
// checks one before it is flashed, with the firmware's own loader (codegen/graph_check.h).
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "compile/compile_model.h"

namespace microaot {

struct CompileCommandOptions;

struct FirmwareFolder {
  std::string dir;
  uint32_t blob_version = 0;
  std::string target;    // --target's value
  std::string optimize;  // speed, balanced or size
  uint32_t inputs = 0;   // NAME_MAX_INPUTS unless the firmware defined it larger
  std::vector<int> kernels;  // the linked kernel ids, sorted
};

// Reads DIR/report.json. Throws CompileError saying what DIR is instead: not a folder microaot wrote, an AOT
// folder, a graph folder from a microaot that did not record its kernels.
FirmwareFolder read_firmware_folder(const std::string& dir);

// --for: the firmware's --target and --optimize into `options` (before resolve_compile_options). Throws
// UsageError when the command line gives another target or optimize level.
void take_firmware_settings(CompileCommandOptions& options, const FirmwareFolder& firmware);

// Throws CompileError naming every kernel the model's blob needs and the firmware does not link (with the
// step that needs it), or a blob version the firmware does not read, and what to do.
void check_model_fits_firmware(const CompiledModel& model, const FirmwareFolder& firmware);

// True when `bytes` start with the blob's magic.
bool is_blob_bytes(const std::vector<uint8_t>& bytes);

// `inspect BLOB [--firmware DIR]`: prints the blob's version, arena, inputs and outputs and the kernels its
// steps need; with a firmware folder, whether that firmware's loader accepts it. Exit status 1 for a blob this
// microaot cannot read or one the firmware refuses.
int inspect_blob(const std::string& path, const std::vector<uint8_t>& bytes, const std::string& firmware_dir);

}  // namespace microaot
