// Small helpers for writing C source text: identifiers, macro names, constant arrays.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "ir/graph.h"
#include "kernels/param_values.h"

namespace microaot {

// A valid C identifier made from arbitrary text: other characters become '_', a leading digit gets '_'.
std::string c_identifier(const std::string& text);
// Upper-case form for macro prefixes: "kws_model" -> "KWS_MODEL".
std::string c_macro_name(const std::string& text);
// Text safe inside a C comment or string literal ("*/", quotes, backslashes and control bytes removed).
std::string c_comment_text(const std::string& text);

// The elements of a constant tensor as C initializer text, 16 per line, each line indented by two spaces.
// Floats are written as exact hex literals so the bytes in flash equal the model's.
std::string c_initializer(const Tensor& tensor);
// The same for a list of integers.
std::string c_initializer(const std::vector<int64_t>& values);
// The same for a list of floats (exact hex literals).
std::string c_initializer(const std::vector<float>& values);

// A C integer literal of any int64 value (INT32_MIN and INT64_MIN have no literal form of their own).
std::string c_int_literal(int64_t value);

// `static const <params struct> <symbol>_params = {...};` with every field of `params` from the bound
// `values`, preceded by one `extern const T <symbol>_<field>[N];` per non-empty array field (empty: NULL),
// which c_params_arrays defines: per-model constants like the weights, so weights.c holds them.
// With `arrays_of` (another call's symbol, whose definition came first) the arrays are that call's.
std::string c_params_definition(const std::string& symbol, const ParamStruct& params, const ParamValues& values,
                                const std::string& arrays_of = "");

// Only those extern declarations (a struct no call takes, whose arrays other structs name).
std::string c_params_array_declarations(const std::string& symbol, const ParamStruct& params,
                                        const ParamValues& values);

// The definitions of those arrays, `const T <symbol>_<field>[N] = {...};` each after its extern declaration.
std::string c_params_arrays(const std::string& symbol, const ParamStruct& params, const ParamValues& values);

}  // namespace microaot
