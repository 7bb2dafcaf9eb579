// The kernel list as the compiler reads it: ids, symbols and variants consistent; every kernel's header and
// source embedded, declaring and defining it; each params struct's field list agreeing with the C struct.
#include <gtest/gtest.h>

#include <cstdlib>
#include <stdexcept>
#include <string>
#include <vector>

#include "codegen/runtime_files.h"
#include "kernels/kernel_registry.h"
#include "microaot/kernels.h"

namespace microaot {
namespace {

const KernelRegistry& registry() { return kernel_registry(); }

bool embedded(const std::string& path) {
  for (const EmbeddedFile* f = kRuntimeFiles; f->path != nullptr; ++f) {
    if (path == f->path) return true;
  }
  return false;
}

// Some embedded header defines the params struct from its field list.
bool defines_params(const std::string& name) {
  for (const EmbeddedFile* f = kRuntimeFiles; f->path != nullptr; ++f) {
    if (runtime_file(f->path).find("MICROAOT_DEFINE_PARAMS(" + name + ")") != std::string::npos) return true;
  }
  return false;
}

TEST(KernelRegistry, IdsArePositionsAndSymbolsFollowStemAndVariant) {
  ASSERT_FALSE(registry().kernels.empty());
  for (size_t i = 0; i < registry().kernels.size(); ++i) {
    const KernelInfo& k = registry().kernels[i];
    EXPECT_EQ(k.id, static_cast<int>(i));
    const std::string expected =
        k.variant == KernelVariant::kPlain ? k.stem : k.stem + "_" + variant_name(k.variant);
    EXPECT_EQ(k.symbol, expected);
    EXPECT_EQ(&registry().by_id(k.id), &k);
    EXPECT_EQ(registry().find(k.stem, k.variant), &k) << k.symbol << " is listed twice";
  }
}

// Whether some MICROAOT_DEFINE_..._KERNEL macro of the source (MICROAOT_DEFINE_BINARY_KERNEL, ...) defines
// the kernel: its first argument is the symbol.
bool defines_through_macro(const std::string& source, const KernelInfo& k) {
  const std::string prefix = "MICROAOT_DEFINE_";
  for (size_t at = source.find(prefix); at != std::string::npos; at = source.find(prefix, at + 1)) {
    const size_t open = source.find('(', at);
    const std::string macro = source.substr(at, open - at);
    if (macro.size() > 7 && macro.compare(macro.size() - 7, 7, "_KERNEL") == 0 &&
        source.compare(open + 1, k.symbol.size() + 1, k.symbol + ",") == 0) {
      return true;
    }
  }
  return false;
}

// Whether a portable source defines kernel k (returning void, or microaot_status for a `status` kernel):
// directly, through a MICROAOT_DEFINE_..._KERNEL macro, or by
// naming it MICROAOT_FN (MICROAOT_FN_OVERLAP, MICROAOT_POOL_STATUS_FN...) and including a template of
// runtime/include/microaot/internal/templates/ that defines a function of that name (any of its template includes).
bool defines_kernel(const std::string& source, const KernelInfo& k) {
  const std::string function = k.function();
  const std::string returned = k.returns_status() ? "microaot_status " : "void ";  // the signature's `status`
  if (source.find(returned + function + "(") != std::string::npos) return true;
  if (defines_through_macro(source, k)) return true;
  const std::string include = "#include \"microaot/internal/templates/";
  for (size_t at = source.find(include); at != std::string::npos; at = source.find(include, at + 1)) {
    const size_t path = at + std::string("#include \"").size();
    const std::string template_text = runtime_file("include/" + source.substr(path, source.find('"', path) - path));
    for (const std::string macro : {"MICROAOT_FN", "MICROAOT_FN_OVERLAP", "MICROAOT_RING_FN", "MICROAOT_POOL_STATUS_FN",
                                    "MICROAOT_POOL_STATUS_FN_OVERLAP"}) {
      if (source.find("#define " + macro + " " + function + "\n") != std::string::npos &&
          template_text.find(returned + macro + "(") != std::string::npos) {
        return true;
      }
    }
  }
  return false;
}

TEST(KernelRegistry, HeadersAndSourcesAreEmbeddedAndNameTheKernel) {
  for (const KernelInfo& k : registry().kernels) {
    SCOPED_TRACE(k.symbol);
    ASSERT_TRUE(embedded("include/" + k.header));
    ASSERT_TRUE(embedded(k.source));
    EXPECT_NE(runtime_file("include/" + k.header).find(" " + k.function() + "("), std::string::npos);
    EXPECT_TRUE(defines_kernel(runtime_file(k.source), k));
    EXPECT_TRUE(defines_params(k.params->name));
  }
}

TEST(KernelRegistry, IsaSourcesAreEmbeddedAndDefineEveryVariantOfTheirStem) {
  ASSERT_FALSE(registry().implementations.empty());
  for (const KernelImplementation& impl : registry().implementations) {
    SCOPED_TRACE(impl.source);
    ASSERT_TRUE(embedded(impl.source));
    const std::string text = runtime_file(impl.source);
    int variants = 0;
    for (const KernelInfo& k : registry().kernels) {
      if (k.stem != impl.stem) continue;
      EXPECT_TRUE(defines_kernel(text, k)) << k.symbol;
      ++variants;
    }
    EXPECT_GT(variants, 0) << "no kernel has the stem " << impl.stem;
  }
}

// A plain kernel with scratch of its own shares the one scratch argument with the overlap row (memory/plan_attempts.cpp);
// the overlap variant returns a status when the plain one does (the final signature word, after its scratch).
TEST(KernelRegistry, OverlapVariantsTakeThePlainArgumentsAndScratch) {
  for (const KernelInfo& k : registry().kernels) {
    if (k.variant != KernelVariant::kOverlap) continue;
    SCOPED_TRACE(k.symbol);
    const KernelInfo* plain = registry().find(k.stem, KernelVariant::kPlain);
    ASSERT_NE(plain, nullptr);
    EXPECT_EQ(plain->params, k.params);
    ASSERT_TRUE(k.takes_scratch());
    EXPECT_EQ(k.returns_status(), plain->returns_status());
    ASSERT_EQ(k.args.size(), plain->args.size() + (plain->takes_scratch() ? 0 : 1));
    const std::vector<KernelArgSpec> tensors = k.tensor_args(), plain_tensors = plain->tensor_args();
    ASSERT_EQ(tensors.size(), plain_tensors.size());
    for (size_t i = 0; i < plain_tensors.size(); ++i) {
      EXPECT_EQ(tensors[i].role, plain_tensors[i].role);
      EXPECT_EQ(tensors[i].dtype, plain_tensors[i].dtype);
    }
  }
}

// The layout a C compiler gives the fields on this host: 4-byte scalars, pointer-sized arrays.
size_t expected_size(const ParamStruct& s) {
  size_t size = 0, align = 4;
  for (const ParamField& f : s.fields) {
    const size_t bytes = is_array(f.kind) ? sizeof(void*) : 4;
    size = (size + bytes - 1) / bytes * bytes + bytes;
    align = std::max(align, bytes);
  }
  return (size + align - 1) / align * align;
}

TEST(KernelRegistry, FieldListsMatchTheCStructs) {
  struct Size {
    const char* name;
    size_t bytes;
  };
  const Size sizes[] = {
#define MICROAOT_KERNEL(id, stem, variant, struct_name, header, source, dtype, signature) \
  {#struct_name, sizeof(microaot_##struct_name)},
#include "microaot/kernel_list.def"
#undef MICROAOT_KERNEL
  };
  for (const Size& size : sizes) {
    const ParamStruct* s = nullptr;
    for (const ParamStruct& candidate : registry().params) {
      if (candidate.name == size.name) s = &candidate;
    }
    ASSERT_NE(s, nullptr) << size.name;
    EXPECT_FALSE(s->fields.empty()) << size.name;
    EXPECT_EQ(expected_size(*s), size.bytes) << size.name;
  }
}

// The id rule: the list ends its kernel lines with MICROAOT_KERNEL_NEXT_ID, the number of kernels; a list whose
// ids skip or repeat, or whose next id a branch forgot to move, is refused by name.
TEST(KernelRegistry, NextIdIsTheNumberOfKernelsAndAStaleOneIsRefused) {
  const std::vector<KernelInfo>& kernels = registry().kernels;
  EXPECT_EQ(registry().next_id, static_cast<int>(kernels.size()));
  EXPECT_EQ(kernel_id_problem(kernels, static_cast<int>(kernels.size())), "");
  std::vector<KernelInfo> appended = kernels;  // a branch appends one line and forgets the next id
  appended.push_back(kernels.back());
  appended.back().id = static_cast<int>(kernels.size());
  EXPECT_NE(kernel_id_problem(appended, static_cast<int>(kernels.size())).find("set it to"), std::string::npos);
  EXPECT_EQ(kernel_id_problem(appended, static_cast<int>(appended.size())), "");
  std::vector<KernelInfo> collided = appended;  // two branches' lines, both given the same id
  collided.push_back(appended.back());
  EXPECT_NE(kernel_id_problem(collided, static_cast<int>(collided.size())).find("at position"), std::string::npos);
}

// Why the rule works: two branches that each append a kernel line and move the next id line edit the same line,
// and git refuses to merge them silently (what a list without that line would let through when the two appends
// land apart). Played on the list's real last lines in a scratch repository.
TEST(KernelRegistry, TwoBranchesAppendingKernelsConflictInGit) {
  if (std::system("git --version > /dev/null 2>&1") != 0) GTEST_SKIP() << "no git";
  const std::string dir = ::testing::TempDir() + "kernel_ids_merge";
  const int n = static_cast<int>(registry().kernels.size());
  const auto line = [](int id, const std::string& stem) {
    return "MICROAOT_KERNEL(" + std::to_string(id) + ", " + stem + ", plain, ...)\\n";
  };
  const auto list = [&](const std::string& appended, int next) {
    return "printf '" + line(n - 1, "last") + appended + "MICROAOT_KERNEL_NEXT_ID(" + std::to_string(next) +
           ")\\n' > list.def && git add list.def && git commit -qm x";
  };
  const std::string script = "rm -rf " + dir + " && mkdir -p " + dir + " && cd " + dir +
                             " && git init -q && git config user.email t@t && git config user.name t && " +
                             list("", n) + " && git checkout -qb a && " + list(line(n, "from_a"), n + 1) +
                             " && git checkout -q - && git checkout -qb b && " + list(line(n, "from_b"), n + 1) +
                             " && ! git merge -q a > /dev/null 2>&1 && git diff --name-only --diff-filter=U | grep -qx list.def";
  EXPECT_EQ(std::system(script.c_str()), 0) << script;
  std::system(("rm -rf " + dir).c_str());
}

// The C function's name comes from the stem and the variant (the list has no symbol column).
TEST(KernelRegistry, SymbolIsTheStemAndTheVariant) {
  for (const KernelInfo& k : registry().kernels) {
    EXPECT_EQ(k.symbol, k.variant == KernelVariant::kPlain ? k.stem : k.stem + "_overlap") << k.id;
  }
  EXPECT_EQ(registry().find("conv_2d_s8", KernelVariant::kOverlap)->function(), "microaot_conv_2d_s8_overlap");
}

// A specialisation names a stem of the list and a parent with the same params struct (the handler lowers the
// layer once and the chooser may send it to either), an instruction set, and no loop through its parents; a
// stem's several lines (several parents) name one instruction set.
TEST(KernelRegistry, SpecialisationsNameTheirParentAndItsParams) {
  const KernelRegistry& r = registry();
  ASSERT_FALSE(r.specialisations.empty());
  for (const KernelSpecialisation& s : r.specialisations) {
    const KernelInfo* stem = r.find(s.stem, KernelVariant::kPlain);
    const KernelInfo* parent = r.find(s.parent, KernelVariant::kPlain);
    ASSERT_NE(stem, nullptr) << s.stem;
    ASSERT_NE(parent, nullptr) << s.parent;
    EXPECT_EQ(stem->params, parent->params) << s.stem;
    EXPECT_TRUE(s.isa == "dsp" || s.isa == "mve" || s.isa == "portable") << s.stem << ": " << s.isa;
    EXPECT_EQ(r.specialisation_of(s.stem)->isa, s.isa) << s.stem << " on two instruction sets";
    EXPECT_EQ(r.specialisation_of(r.root_of(s.stem)), nullptr) << s.stem;
    EXPECT_TRUE(r.specialises(s.stem, s.parent)) << s.stem;
    EXPECT_TRUE(r.specialises(s.stem, r.root_of(s.parent))) << s.stem;
    EXPECT_FALSE(r.specialises(s.parent, s.stem)) << s.stem;
  }
  EXPECT_EQ(r.root_of("conv_2d_s8_packed_kxk_w16"), "conv_2d_s8");
  EXPECT_EQ(r.root_of("average_pool_2d_s8_global"), "average_pool_2d_s8");
  EXPECT_EQ(r.root_of("add_s8"), "add_s8");
  EXPECT_TRUE(r.specialises("add_s8_linear", "sub_s8"));
  EXPECT_FALSE(r.specialises("add_s8_linear", "conv_2d_s8"));
}

// A fold names two stems of the list; without a params rewrite both take the same params struct.
TEST(KernelRegistry, FoldsNameTwoStems) {
  const KernelRegistry& r = registry();
  ASSERT_FALSE(r.folds.empty());
  for (const KernelFold& fold : r.folds) {
    const KernelInfo* from = r.find(fold.from, KernelVariant::kPlain);
    const KernelInfo* into = r.find(fold.into, KernelVariant::kPlain);
    ASSERT_NE(from, nullptr) << fold.from;
    ASSERT_NE(into, nullptr) << fold.into;
    EXPECT_NE(fold.from, fold.into);
    EXPECT_FALSE(fold.why.empty()) << fold.from;
    if (fold.adapt == "none") {
      EXPECT_EQ(from->params, into->params) << fold.from << " -> " << fold.into;
    }
  }
}

TEST(KernelRegistry, FieldKindsComeFromTheRuntimeHeader) {
  const KernelInfo* softmax = registry().find("softmax_s16", KernelVariant::kPlain);
  ASSERT_NE(softmax, nullptr);
  const ParamStruct& s = *softmax->params;
  ASSERT_GE(s.find("exp_lut"), 0);
  EXPECT_EQ(s.fields[s.find("exp_lut")].kind, ParamKind::kI16Array);
  EXPECT_EQ(s.fields[s.find("depth")].kind, ParamKind::kI32);
  const KernelInfo* quantize = registry().find("quantize_f32_s8", KernelVariant::kPlain);
  ASSERT_NE(quantize, nullptr);
  EXPECT_EQ(quantize->params->fields[quantize->params->find("output_scale")].kind, ParamKind::kF32);
  EXPECT_EQ(s.find("no_such_field"), -1);
}

TEST(KernelSignature, ParsesRolesAndTypes) {
  const std::vector<KernelArgSpec> args = parse_kernel_signature("in:s8 in?:s32 out:f32 scratch");
  ASSERT_EQ(args.size(), 4u);
  EXPECT_EQ(args[0].role, KernelArgSpec::Role::kIn);
  EXPECT_EQ(args[0].dtype, DType::kInt8);
  EXPECT_EQ(args[1].role, KernelArgSpec::Role::kOptionalIn);
  EXPECT_EQ(args[1].dtype, DType::kInt32);
  EXPECT_EQ(args[2].role, KernelArgSpec::Role::kOut);
  EXPECT_EQ(args[2].dtype, DType::kFloat32);
  EXPECT_EQ(args[3].role, KernelArgSpec::Role::kScratch);
  const std::vector<KernelArgSpec> list = parse_kernel_signature("in*:any in:s32 out:any");
  ASSERT_EQ(list.size(), 3u);
  EXPECT_EQ(list[0].role, KernelArgSpec::Role::kInList);
  EXPECT_TRUE(list[0].is_list());
  EXPECT_TRUE(list[0].accepts(DType::kInt16));
  EXPECT_TRUE(list[2].is_output());
  EXPECT_FALSE(list[1].accepts(DType::kInt8));
  EXPECT_TRUE(parse_kernel_signature("in:u8 out*:bool")[1].is_output());
  EXPECT_THROW(parse_kernel_signature("in*:s8 out*:s8"), std::invalid_argument);
  EXPECT_THROW(parse_kernel_signature("input:s8"), std::invalid_argument);
  EXPECT_THROW(parse_kernel_signature("in:q7"), std::invalid_argument);
  EXPECT_THROW(parse_kernel_signature("s8"), std::invalid_argument);
}

TEST(KernelSignature, StatusMarksAKernelThatReturnsOneAndIsNoTensor) {
  KernelInfo gather;
  gather.args = parse_kernel_signature("in:any in:s32 out:any status");
  EXPECT_TRUE(gather.returns_status());
  EXPECT_EQ(gather.tensor_args().size(), 3u);
  EXPECT_EQ(gather.fixed_arg_count(), 3u);
  EXPECT_FALSE(gather.takes_scratch());
  KernelInfo copy;
  copy.args = parse_kernel_signature("in:any out:any");
  EXPECT_FALSE(copy.returns_status());
}

}  // namespace
}  // namespace microaot
