#include "codegen/emit.h"

namespace microaot {

std::string emit_platform_header() {
  return std::string(kGeneratedBanner) +
         "/* Hooks between the generated code and your platform. platform.c gives weak defaults that do\n"
         " * nothing; define a function of the same name in your firmware to replace one. */\n"
         "#ifndef MICROAOT_PLATFORM_H\n#define MICROAOT_PLATFORM_H\n\n"
         "#include <stddef.h>\n#include <stdint.h>\n\n"
         "#ifdef __cplusplus\nextern \"C\" {\n#endif\n\n"
         "/* A free-running cycle counter (e.g. DWT->CYCCNT); the default returns 0. */\n"
         "uint32_t microaot_platform_cycle_count(void);\n\n"
         "/* A line of text for the log; the default drops it. */\n"
         "void microaot_platform_log(const char *message);\n\n"
         "/* Data-cache maintenance around DMA: clean before a peripheral reads memory the CPU wrote,\n"
         " * invalidate before the CPU reads memory a peripheral wrote. The defaults do nothing. */\n"
         "void microaot_platform_cache_clean(const void *data, size_t size);\n"
         "void microaot_platform_cache_invalidate(void *data, size_t size);\n\n"
         "/* Called around every operator when the library is built with -DMICROAOT_PROFILE. */\n"
         "void microaot_platform_op_begin(int step, const char *op_name);\n"
         "void microaot_platform_op_end(int step, const char *op_name);\n\n"
         "#ifdef __cplusplus\n}\n#endif\n\n#endif /* MICROAOT_PLATFORM_H */\n";
}

std::string emit_platform_source() {
  return std::string(kGeneratedBanner) +
         "/* Weak default platform hooks: replace any of them by defining it in your firmware. */\n"
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
