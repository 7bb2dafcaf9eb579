#include "differential_util.h"

#include <fstream>

#include "e2e_util.h"
#include "support/process.h"

namespace microaot::e2e {

int run_differential(const std::vector<std::string>& args, std::string* output) {
  const std::string dir = make_temp_dir();
  std::vector<std::string> argv = {MICROAOT_DIFFERENTIAL_BIN, "--work", dir + "/work"};
  argv.insert(argv.end(), args.begin(), args.end());
  const int status = run_process(argv, dir + "/stderr.txt", dir + "/stdout.txt");
  *output = read_text(dir + "/stdout.txt") + read_text(dir + "/stderr.txt");
  remove_dir(dir);
  return status;
}

namespace {
std::string write(const std::string& path, const std::string& text) {
  std::ofstream(path) << text;
  return path;
}
}  // namespace

std::string write_faithful_add_s8(const std::string& dir) {
  return write(dir + "/add_s8_same.c", read_text(std::string(MICROAOT_RUNTIME_DIR) + "/kernels/portable/add_s8.c"));
}

std::string write_wrong_add_s8(const std::string& dir) {
  return write(dir + "/add_s8_wrong.c",
               "#include \"microaot/kernels/add.h\"\n"
               "#define WRONG(p, a, b) (MICROAOT_ADD_QUANTIZED(p, a, b) - (((a) & 15) == 1 && MICROAOT_ADD_QUANTIZED(p, a, b) > -128))\n"
               "MICROAOT_DEFINE_BINARY_KERNEL(add_s8, microaot_add_params_q, int8_t, WRONG)\n");
}

std::string write_faithful_conv_2d_s8(const std::string& dir) {
  return write(dir + "/conv_2d_s8_same.c",
               read_text(std::string(MICROAOT_RUNTIME_DIR) + "/kernels/portable/conv_2d_s8.c"));
}

std::string write_channel_mixing_conv_2d_s8(const std::string& dir) {
  return write(dir + "/conv_2d_s8_mixing.c",
               "#define MICROAOT_DTYPE s8\n"
               "#define MICROAOT_CONV conv_2d\n"
               "#define MICROAOT_FN microaot_conv_2d_s8\n"
               "#define MICROAOT_FN_OVERLAP microaot_conv_2d_s8_overlap\n"
               "#include \"microaot/internal/kernel_dtype.h\"\n"
               "#undef MICROAOT_OUTPUT_s8\n"
               "#define MICROAOT_OUTPUT_s8(p, acc, c) MICROAOT_OUTPUT_INT(p, acc, (c) & ~1)\n"
               "#include \"microaot/internal/templates/conv.h\"\n");
}

}  // namespace microaot::e2e
