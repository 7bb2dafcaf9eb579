// A fixture for command-line tests: a fresh temporary folder holding the demo model (tools/make_demo_model).
#pragma once

#include <gtest/gtest.h>

#include <string>

#include "e2e_util.h"
#include "support/process.h"

namespace microaot::e2e {

class DemoModelTest : public ::testing::Test {
 protected:
  void SetUp() override {
    tmp_ = make_temp_dir();
    demo_ = tmp_ + "/demo.tflite";
    ASSERT_EQ(run_process({MICROAOT_DEMO_MODEL_TOOL, demo_}), 0);
  }
  void TearDown() override { remove_dir(tmp_); }

  std::string tmp_;
  std::string demo_;
};

}  // namespace microaot::e2e
