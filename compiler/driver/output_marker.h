// microaot.json: the mark of an output microaot wrote. It holds the version, each model's SHA-256 and
// every written file's SHA-256, so that a later compile can tell its own untouched output (which it may
// replace) from anything a user wrote or edited (which it must not lose).
#pragma once

#include <filesystem>
#include <string>
#include <vector>

#include "codegen/emit.h"

namespace microaot {

constexpr const char* kMarkerFile = "microaot.json";

struct ModelStamp {
  std::string file;    // the model's file name, as given
  std::string sha256;  // of the model's bytes
};

// The marker's text for an output holding `files` (the marker itself not among them). Deterministic.
std::string marker_json(const std::vector<ModelStamp>& models, const FileSet& files);

// True when `text` is a marker microaot wrote (any version).
bool is_marker(const std::string& text);

// What replacing folder `dir` would lose: files (relative paths) its marker does not list, listed files
// whose contents changed since, empty folders (microaot writes none), and anything that is neither a file
// nor a folder. Empty for an empty
// folder or an untouched microaot output. A folder without a valid marker yields {kMarkerFile + " missing"}
// when it is not empty.
std::vector<std::string> files_at_risk(const std::filesystem::path& dir);

}  // namespace microaot
