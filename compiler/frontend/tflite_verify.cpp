// First line of defence: nothing in the file is read before the flatbuffers verifier has checked that
// every offset, vector and string the reader can reach lies inside the buffer.
#include <cctype>
#include <cstring>
#include <string>

#include "frontend/foreign_model.h"
#include "frontend/tflite_internal.h"
#include "support/diagnostics.h"

namespace microaot {
namespace tflite_detail {

namespace {
constexpr size_t kMinModelBytes = 16;  // root offset + identifier + the smallest table

// True when bytes 4..7 look like some file identifier (four printable characters), as opposed to
// flatbuffer data of a file written without an identifier.
bool looks_like_identifier(const uint8_t* p) {
  for (int i = 0; i < 4; ++i) {
    if (!std::isalnum(p[i])) return false;
  }
  return true;
}

bool run_verifier(const std::vector<uint8_t>& bytes, const char* identifier) {
  flatbuffers::Verifier::Options options;
  options.max_depth = 32;          // the .tflite tables nest at most ~6 deep
  options.max_tables = 10000000;   // bounds the work on hostile files
  flatbuffers::Verifier verifier(bytes.data(), bytes.size(), options);
  return verifier.VerifyBuffer<tflite::Model>(identifier);
}

// A file without the TFL3 identifier that looks like another format (frontend/foreign_model.h) is refused
// saying so, unless it is a model flatbuffer written without the identifier after all.
void refuse_foreign(const std::vector<uint8_t>& bytes) {
  const std::string foreign = describe_foreign_model(bytes);
  if (foreign.empty() || (bytes.size() >= kMinModelBytes && run_verifier(bytes, nullptr))) return;
  throw CompileError("not a .tflite model: it looks like " + foreign);
}
}  // namespace

const tflite::Model& verify_model(const std::vector<uint8_t>& bytes) {
  if (bytes.size() > kMaxModelBytes) {
    throw CompileError("model file is " + std::to_string(bytes.size()) +
                       " bytes; microaot reads models up to 2 GiB");
  }
  // The verifier's alignment checks are relative to the buffer start, so the start must be aligned.
  MICROAOT_CHECK(reinterpret_cast<uintptr_t>(bytes.data()) % 8 == 0, "model buffer is not 8-byte aligned");
  const bool has_identifier = bytes.size() >= 8 && tflite::ModelBufferHasIdentifier(bytes.data());
  if (!has_identifier) refuse_foreign(bytes);
  if (bytes.size() < kMinModelBytes) {
    throw CompileError("model file is too small to be a .tflite model (" + std::to_string(bytes.size()) +
                       " bytes)");
  }
  if (!has_identifier && looks_like_identifier(bytes.data() + 4)) {
    throw CompileError("not a .tflite model: file identifier is '" +
                       std::string(reinterpret_cast<const char*>(bytes.data()) + 4, 4) + "', expected 'TFL3'");
  }
  if (!run_verifier(bytes, has_identifier ? tflite::ModelIdentifier() : nullptr)) {
    throw CompileError(has_identifier ? "malformed .tflite model: the flatbuffer does not verify "
                                        "(truncated or corrupted file?)"
                                      : "not a .tflite model: no 'TFL3' file identifier and the data is "
                                        "not a valid model flatbuffer");
  }
  const tflite::Model& model = *tflite::GetModel(bytes.data());
  if (model.version() != 3) {
    throw CompileError("unsupported .tflite schema version " + std::to_string(model.version()) +
                       " (microaot reads version 3)");
  }
  return model;
}

void check_not_compressed(const tflite::Model& model) {
  constexpr char kCompression[] = "COMPRESSION_METADATA";
  const auto* metadata = model.metadata();
  for (uint32_t i = 0; metadata != nullptr && i < metadata->size(); ++i) {
    // Compared in place: many entries may share one long name (no copy, no amplification).
    const flatbuffers::String* name = metadata->Get(i)->name();
    if (name != nullptr && name->size() == sizeof kCompression - 1 &&
        std::memcmp(name->data(), kCompression, sizeof kCompression - 1) == 0) {
      throw CompileError("the model's constants are compressed for TensorFlow Lite Micro in its earlier form "
                         "(metadata 'COMPRESSION_METADATA', decoded inside each kernel), which microaot does not "
                         "read: compile the uncompressed model, or compress it with TFLM's current tooling (DECODE "
                         "operators, look-up-table kind), which microaot reads");
    }
  }
}

const tflite::SubGraph& main_subgraph(const tflite::Model& model) {
  const auto* subgraphs = model.subgraphs();
  if (subgraphs == nullptr || subgraphs->size() == 0 || subgraphs->Get(0) == nullptr) {
    throw CompileError("malformed .tflite model: it has no subgraph");
  }
  return *subgraphs->Get(0);
}

}  // namespace tflite_detail
}  // namespace microaot
