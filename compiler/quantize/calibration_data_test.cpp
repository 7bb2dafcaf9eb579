#include "quantize/calibration_data.h"

#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <unistd.h>

#include "support/diagnostics.h"

namespace fs = std::filesystem;

namespace microaot {
namespace {

class CalibrationData : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ = fs::temp_directory_path() / ("microaot-calib-" + std::to_string(::getpid()));
    fs::remove_all(dir_);
    fs::create_directories(dir_);
  }
  void TearDown() override { fs::remove_all(dir_); }
  std::string write(const std::string& name, const std::string& bytes) {
    const std::string path = (dir_ / name).string();
    std::ofstream(path, std::ios::binary) << bytes;
    return path;
  }
  static std::string floats(std::vector<float> v) {
    return std::string(reinterpret_cast<const char*>(v.data()), v.size() * sizeof(float));
  }
  static std::string npy(const std::string& descr, const std::string& payload) {
    std::string header = "{'descr': '" + descr + "', 'fortran_order': False, 'shape': (1, 2), }";
    while ((10 + header.size() + 1) % 64 != 0) header += ' ';
    header += '\n';
    std::string out = "\x93NUMPY";
    out += '\x01';
    out += '\x00';
    out += static_cast<char>(header.size() & 0xff);
    out += static_cast<char>(header.size() >> 8);
    return out + header + payload;
  }
  // Expects the read to fail with a message holding every part of `parts`.
  void expect_error(const std::vector<std::string>& paths, const std::vector<CalibrationInputSpec>& specs,
                    const std::vector<std::string>& parts) {
    try {
      read_calibration(paths, specs);
      ADD_FAILURE() << "no error";
    } catch (const CompileError& e) {
      for (const std::string& part : parts) EXPECT_NE(std::string(e.what()).find(part), std::string::npos) << e.what();
    }
  }
  fs::path dir_;
  const std::vector<CalibrationInputSpec> one_input_ = {{"x", {1, 2}}};
};

TEST_F(CalibrationData, ReadsBinAndNpyFilesAndFolders) {
  const std::string bin = write("a.bin", floats({1.0f, 2.0f}));
  const std::string np = write("b.npy", npy("<f4", floats({3.0f, 4.0f})));
  const auto samples = read_calibration({dir_.string()}, one_input_);
  ASSERT_EQ(samples.size(), 2u);
  EXPECT_EQ(samples[0].inputs[0], (std::vector<float>{1.0f, 2.0f}));
  EXPECT_EQ(samples[1].inputs[0], (std::vector<float>{3.0f, 4.0f}));
  EXPECT_EQ(read_calibration({np}, one_input_).size(), 1u);
}

TEST_F(CalibrationData, AFolderOfVectorsGivesOnlyItsInputs) {
  write("0.input0.bin", floats({1.0f, 2.0f}));
  write("0.output0.bin", floats({9.0f}));  // wrong size: would be refused if read
  write("1.input0.bin", floats({5.0f, 6.0f}));
  const auto samples = read_calibration({dir_.string()}, one_input_);
  ASSERT_EQ(samples.size(), 2u);
  EXPECT_EQ(samples[1].inputs[0], (std::vector<float>{5.0f, 6.0f}));
}

TEST_F(CalibrationData, SeveralInputsPerSample) {
  const std::vector<CalibrationInputSpec> two = {{"x", {2}}, {"y", {1}}};
  write("s.input0.bin", floats({1.0f, 2.0f}));
  write("s.input1.bin", floats({3.0f}));
  const auto samples = read_calibration({dir_.string()}, two);
  ASSERT_EQ(samples.size(), 1u);
  EXPECT_EQ(samples[0].inputs[1], (std::vector<float>{3.0f}));
  write("t.input0.bin", floats({1.0f, 2.0f}));
  expect_error({dir_.string()}, two, {"t", "no file for input 1"});
}

TEST_F(CalibrationData, AnIntegerInputReadsItsOwnTypeToo) {
  const std::vector<CalibrationInputSpec> int8_input = {{"x", {1, 2}, DType::kInt8, 0.5f, -1}};
  const std::string own = write("own.bin", std::string("\x01\xfd", 2));  // 1 and -3
  EXPECT_EQ(read_calibration({own}, int8_input)[0].inputs[0], (std::vector<float>{1.0f, -1.0f}));
  const std::string f = write("f.bin", floats({7.0f, 8.0f}));
  EXPECT_EQ(read_calibration({f}, int8_input)[0].inputs[0], (std::vector<float>{7.0f, 8.0f}));
  expect_error({write("odd.bin", "abc")}, int8_input, {"odd.bin", "needs 8", "or 2 (its own type)"});
  const std::vector<CalibrationInputSpec> int16_input = {{"x", {1, 2}, DType::kInt16, 2.0f, 0}};
  const std::string wide = write("wide.bin", std::string("\x02\x00\xff\xff", 4));  // 2 and -1
  EXPECT_EQ(read_calibration({wide}, int16_input)[0].inputs[0], (std::vector<float>{4.0f, -2.0f}));
}

TEST_F(CalibrationData, WrongSizeIsRefusedNamingTheFile) {
  const std::string bad = write("bad.bin", floats({1.0f, 2.0f, 3.0f}));
  expect_error({bad}, one_input_, {bad, "12 bytes", "needs 8"});
}

TEST_F(CalibrationData, WrongNpyDtypeIsRefusedNamingTheFile) {
  const std::string bad = write("bad.npy", npy("<f8", std::string(16, '\0')));
  expect_error({bad}, one_input_, {bad, "'<f8'", "float32"});
  const std::string short_one = write("short.npy", npy("<f4", floats({1.0f})));
  expect_error({short_one}, one_input_, {short_one, "holds 1 float32", "needs 2"});
  const std::string not_npy = write("fake.npy", "hello world");
  expect_error({not_npy}, one_input_, {not_npy, "not a .npy"});
}

TEST_F(CalibrationData, OtherMistakesAreNamed) {
  expect_error({(dir_ / "missing.bin").string()}, one_input_, {"missing.bin", "does not exist"});
  const std::string txt = write("notes.txt", "x");
  expect_error({txt}, one_input_, {"notes.txt", "neither .bin nor .npy"});
  expect_error({dir_.string()}, one_input_, {"holds no .bin or .npy"});
  const std::string plain = write("plain.bin", floats({1.0f}));
  expect_error({plain}, {{"x", {1}}, {"y", {1}}}, {"plain.bin", "has 2 inputs"});
}

}  // namespace
}  // namespace microaot
