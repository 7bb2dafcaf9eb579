#include "frontend/foreign_model.h"

#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>

#include <unistd.h>

#include "frontend/tflite_reader.h"
#include "frontend/tflite_test_builder.h"
#include "support/diagnostics.h"

namespace microaot {
namespace {

std::vector<uint8_t> bytes_of(const std::string& text) { return {text.begin(), text.end()}; }

// The first bytes of each format as its writer lays them out.
const std::string kOnnx = std::string("\x08\x07\x12\x07pytorch\x1a\x03" "2.1:\x90\x01\n", 20) + std::string(64, 'x');
const std::string kSavedModel = std::string("\x08\x01\x12\xa0\x01\n\x0c\n\x05serve", 14) + std::string(64, 'x');
const std::string kHdf5 = std::string("\x89HDF\r\n\x1a\n", 8) + std::string(64, '\0');
const std::string kTorchZip = std::string("PK\x03\x04", 4) + std::string(26, '\0') + "archive/data.pkl" + std::string(64, 'x');
const std::string kKerasZip = std::string("PK\x03\x04", 4) + std::string(26, '\0') + "metadata.jsonconfig.json";

TEST(ForeignModel, NamesEachFormatAndWhatToDo) {
  EXPECT_EQ(describe_foreign_model(bytes_of(kOnnx)).rfind("an ONNX model (protobuf): give it to microaot as it is", 0), 0u);
  EXPECT_NE(describe_foreign_model(bytes_of(kSavedModel)).find("SavedModel"), std::string::npos);
  EXPECT_NE(describe_foreign_model(bytes_of(kHdf5)).find("Keras HDF5"), std::string::npos);
  EXPECT_NE(describe_foreign_model(bytes_of(kHdf5)).find("TFLiteConverter"), std::string::npos);
  EXPECT_NE(describe_foreign_model(bytes_of(kTorchZip)).find("PyTorch archive"), std::string::npos);
  EXPECT_NE(describe_foreign_model(bytes_of(kKerasZip)).find("Keras 3"), std::string::npos);
  EXPECT_NE(describe_foreign_model(bytes_of("\x80\x02}q\x00(X")).find("pickle"), std::string::npos);
  EXPECT_NE(describe_foreign_model(bytes_of("version https://git-lfs.github.com/spec/v1\noid sha256:0\n"))
                .find("git lfs pull"),
            std::string::npos);
  EXPECT_EQ(describe_foreign_model(bytes_of("this is not a flatbuffer at all")), "");
  EXPECT_EQ(describe_foreign_model({}), "");
}

TEST(ForeignModel, TheReaderRefusesWithTheDescription) {
  try {
    read_tflite(bytes_of(kOnnx));
    FAIL() << "an ONNX file was read";
  } catch (const CompileError& e) {
    EXPECT_EQ(std::string(e.what()).rfind("not a .tflite model: it looks like an ONNX model", 0), 0u) << e.what();
  }
  EXPECT_EQ(read_tflite(tflite_test::build_model(tflite_test::small_fc_model())).ops.size(), 1u);  // unchanged
}

TEST(ForeignModel, SavedModelFolder) {
  const std::filesystem::path dir = std::filesystem::temp_directory_path() / ("microaot_foreign_model_test_" + std::to_string(getpid()));
  std::filesystem::create_directories(dir);
  EXPECT_EQ(describe_foreign_folder(dir.string()), "");
  std::ofstream(dir / "saved_model.pb") << kSavedModel;
  EXPECT_NE(describe_foreign_folder(dir.string()).find("from_saved_model"), std::string::npos);
  std::filesystem::remove_all(dir);
}

}  // namespace
}  // namespace microaot
