// For the tests of the differential harness (tools/differential.cpp): runs it, and writes candidate
// kernel files, a faithful one and one deliberately wrong in a case random data reaches.
#pragma once

#include <string>
#include <vector>

namespace microaot::e2e {

// Runs microaot_differential with `args`; its stdout in *output.
int run_differential(const std::vector<std::string>& args, std::string* output);

// add_s8 exactly as the portable file computes it, and add_s8 off by one whenever input 1 is 1 modulo 16.
std::string write_faithful_add_s8(const std::string& dir);
std::string write_wrong_add_s8(const std::string& dir);

// conv_2d_s8 exactly as the portable file computes it, and conv_2d_s8 that requantizes each odd output channel
// with its even neighbour's multiplier and shift (a mix-up that only per-channel weights and unclamped sums show).
std::string write_faithful_conv_2d_s8(const std::string& dir);
std::string write_channel_mixing_conv_2d_s8(const std::string& dir);

}  // namespace microaot::e2e
