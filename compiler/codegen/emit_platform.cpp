#include "codegen/emit.h"

namespace microaot {

std::string emit_platform_header() {
  return std::string(kGeneratedBanner) +
         "/* Hooks between the generated code and your platform (cycle counter, log, cache maintenance, per-\n"
         " * operator profiling): declared in kernels/microaot/platform.h, with weak defaults in platform.c. */\n"
         "#include \"microaot/platform.h\"\n";
}

std::string emit_platform_source() {
  return std::string(kGeneratedBanner) +
         "/* Weak default platform hooks (microaot/platform.h): replace any of them by defining it in your\n"
         " * firmware. */\n"
         "#include \"platform.h\"\n\n"
         "#if defined(__GNUC__) || defined(__clang__)\n#define MICROAOT_WEAK __attribute__((weak))\n#else\n"
         "#define MICROAOT_WEAK\n#endif\n\n"
         "MICROAOT_WEAK uint32_t microaot_platform_cycle_count(void) { return 0u; }\n\n"
         "MICROAOT_WEAK void microaot_platform_log(const char *message) { (void)message; }\n\n"
         "MICROAOT_WEAK void microaot_platform_cache_clean(const void *data, size_t size) {\n"
         "  (void)data;\n  (void)size;\n}\n\n"
         "MICROAOT_WEAK void microaot_platform_cache_invalidate(void *data, size_t size) {\n"
         "  (void)data;\n  (void)size;\n}\n\n"
         "MICROAOT_WEAK void microaot_platform_op_begin(int step, const char *op_name) {\n"
         "  (void)step;\n  (void)op_name;\n}\n\n"
         "MICROAOT_WEAK void microaot_platform_op_end(int step, const char *op_name) {\n"
         "  (void)step;\n  (void)op_name;\n}\n";
}

}  // namespace microaot
