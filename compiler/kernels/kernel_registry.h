// The runtime kernels as the compiler sees them: runtime/include/microaot/kernel_list.def, with each
// params struct's fields expanded from the X-macro field list of its runtime header. Handlers name a kernel
// by stem; lowering checks the call against the struct and the signature; select_kernels picks the variant
// and the implementation for the target.
#pragma once

#include <cstddef>
#include <string>
#include <vector>

#include "ir/dtype.h"

namespace microaot {

// The kind of one params field (runtime/include/microaot/params.h).
enum class ParamKind { kI32, kF32, kI8Array, kI16Array, kI32Array, kF32Array };
bool is_array(ParamKind kind);
bool is_float(ParamKind kind);  // F32 or F32_ARRAY
// Bytes of one scalar or one array element.
size_t element_bytes(ParamKind kind);
// The C element type: "int32_t", "float", ...
const char* param_c_type(ParamKind kind);

struct ParamField {
  std::string name;
  ParamKind kind;
};

// A params struct `microaot_<name>` and its fields in declaration order.
struct ParamStruct {
  std::string name;
  std::vector<ParamField> fields;
  std::string c_type() const { return "microaot_" + name; }
  // The field's position, or -1.
  int find(const std::string& field) const;
};

enum class KernelVariant { kPlain, kOverlap };
const char* variant_name(KernelVariant variant);

// One argument after the params pointer. A list (in*:T, out*:T) takes one or more tensors, passed to the
// kernel as an array of pointers; a signature has at most one list.
struct KernelArgSpec {
  enum class Role { kIn, kOptionalIn, kOut, kInList, kOutList, kScratch, kStatus };
  Role role;
  DType dtype = DType::kUnsupported;  // none for scratch, and for `any`
  bool any_type = false;              // `any`: a byte-generic kernel, the element size is a params field

  bool is_list() const { return role == Role::kInList || role == Role::kOutList; }
  bool is_output() const { return role == Role::kOut || role == Role::kOutList; }
  bool accepts(DType type) const { return any_type || type == dtype; }
};

struct KernelInfo {
  int id = -1;
  std::string symbol;  // the C function is microaot_<symbol>: the stem, with `_overlap` for that variant
  std::string stem;
  KernelVariant variant = KernelVariant::kPlain;
  const ParamStruct* params = nullptr;
  std::string header;  // include path, e.g. "microaot/kernels/conv.h"
  std::string source;  // its own implementation, below runtime/: "kernels/portable/conv_2d_s8.c", or the
                       // instruction set's folder for a stem written for it alone: "kernels/dsp/conv_2d_s8_packed.c"
  DType dtype = DType::kUnsupported;  // kUnsupported for a byte-generic (`any`) kernel
  std::vector<KernelArgSpec> args;

  std::string function() const { return "microaot_" + symbol; }
  bool takes_scratch() const;
  // The kernel returns a microaot_status (signature word `status`): it may refuse its data at run time.
  bool returns_status() const;
  // The signature's tensor arguments (scratch and status excluded), and how many of them are not the list.
  std::vector<KernelArgSpec> tensor_args() const;
  size_t fixed_arg_count() const;
  bool has_list() const;
};

// A call's tensor ids split per entry of kernel.tensor_args(): one id each, and for the list every id the
// other entries leave. Requires a count the signature takes (kernel_call_problem checks it).
std::vector<std::vector<int>> split_arguments(const KernelInfo& kernel, const std::vector<int>& args);

// A faster implementation of every variant of `stem` for an instruction set (bit-exact, same symbols).
struct KernelImplementation {
  std::string stem;
  std::string isa;     // "dsp", "mve"
  std::string source;  // below runtime/: "kernels/dsp/conv_2d_s8.c"
};

// A stem that computes some of its parent's layers on an instruction set (MICROAOT_KERNEL_SPECIALISATION).
struct KernelSpecialisation {
  std::string stem, parent;
  std::string isa;  // "dsp", "mve"
};

// A call of `from` may run as `into` when the model links `into` (MICROAOT_KERNEL_FOLD): its params as they
// are (adapt "none") or rewritten by the compiler's function named `adapt` (compiler/kernels/share_kernels.cpp).
struct KernelFold {
  std::string from, into, adapt, why;
};

struct KernelRegistry {
  std::vector<ParamStruct> params;
  std::vector<KernelInfo> kernels;  // kernels[i].id == i
  std::vector<KernelImplementation> implementations;
  std::vector<KernelSpecialisation> specialisations;
  std::vector<KernelFold> folds;  // in the order they apply
  int next_id = -1;               // MICROAOT_KERNEL_NEXT_ID: kernels.size() in a well-formed list

  const KernelInfo* find(const std::string& stem, KernelVariant variant) const;
  const KernelInfo& by_id(int id) const;
  // The first specialisation line of `stem`, or nullptr for a stem no line specialises (a family's generic
  // stem). A stem may specialise several parents (add_s8_linear: ADD's and SUB's), on one instruction set.
  const KernelSpecialisation* specialisation_of(const std::string& stem) const;
  // The generic stem at the top of `stem`'s first parents (`stem` itself when it specialises none).
  std::string root_of(const std::string& stem) const;
  // Whether `stem` is `ancestor` or specialises it, through any of its lines.
  bool specialises(const std::string& stem, const std::string& ancestor) const;
};

// What is wrong with the list's ids: a kernel whose id is not its position, or a MICROAOT_KERNEL_NEXT_ID that is
// not the number of kernels (a branch appended lines without moving it, so a parallel branch's merge would not
// conflict); empty when they are right.
std::string kernel_id_problem(const std::vector<KernelInfo>& kernels, int next_id);

// The registry built from kernel_list.def; aborts (compiler bug) on a malformed line.
const KernelRegistry& kernel_registry();

// Parses a signature such as "in:s8 in?:s32 out:s8 scratch", "in*:any out:any" or "in:any in:s32 out:any
// status"; throws
// std::invalid_argument when malformed.
std::vector<KernelArgSpec> parse_kernel_signature(const std::string& signature);

}  // namespace microaot
