// The typed values of one kernel call's params struct. Operator handlers set them by field name; binding to
// the struct (lowering) orders them as the struct declares its fields and rejects a missing, extra, repeated
// or mistyped field and a value its C type cannot hold. The C emitter and the serializer then walk them.
#pragma once

#include <cstdint>
#include <stdexcept>
#include <string>
#include <vector>

#include "kernels/kernel_registry.h"

namespace microaot {

struct ParamValue {
  enum class Form { kInteger, kReal, kIntegers, kReals };  // what the handler gave
  std::string field;
  Form form = Form::kInteger;
  int64_t integer = 0;
  float real = 0;
  std::vector<int64_t> integers;
  std::vector<float> reals;

  bool operator==(const ParamValue& other) const;
};

// A handler bug found while binding (missing or extra field, wrong kind, value out of range).
class ParamBindError : public std::logic_error {
 public:
  using std::logic_error::logic_error;
};

class ParamValues {
 public:
  void set_int(const std::string& field, int64_t value);
  void set_float(const std::string& field, float value);
  void set_ints(const std::string& field, std::vector<int64_t> values);
  void set_floats(const std::string& field, std::vector<float> values);
  // Changes an integer field already set (a specialisation that moves a value elsewhere, e.g. into a bias).
  void replace_int(const std::string& field, int64_t value);
  // Changes an integer array already set (empty: the generated struct holds NULL).
  void replace_ints(const std::string& field, std::vector<int64_t> values);

  // Orders the values as `params` declares its fields; throws ParamBindError naming the problem.
  void bind(const ParamStruct& params);

  const std::vector<ParamValue>& values() const { return values_; }
  // The value of `field`, or nullptr.
  const ParamValue* find(const std::string& field) const;
  // Bytes of the constant arrays (what they add to flash).
  int64_t array_bytes(const ParamStruct& params) const;

  bool operator==(const ParamValues& other) const { return values_ == other.values_; }

 private:
  void add(ParamValue value);
  std::vector<ParamValue> values_;
};

}  // namespace microaot
