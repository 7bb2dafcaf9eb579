# MICROAOT_FUZZ=ON (clang only): instrument everything for libFuzzer with ASan and UBSan. Included by the
# top-level CMakeLists before any target exists, so the flags reach microaot_core too. With
# MICROAOT_SANITIZE=ON as well (scripts/test.sh), one build serves the sanitizer pass and the fuzzers: the
# coverage instrumentation is inert outside a fuzzer, where ASan's runtime supplies its callbacks.
option(MICROAOT_FUZZ "Build the libFuzzer targets of fuzz/ (clang only)" OFF)
if(MICROAOT_FUZZ)
  if(NOT CMAKE_CXX_COMPILER_ID MATCHES "Clang")
    message(FATAL_ERROR "MICROAOT_FUZZ needs clang: configure with -DCMAKE_CXX_COMPILER=clang++ "
                        "-DCMAKE_C_COMPILER=clang (scripts/fuzz.sh does)")
  endif()
  add_compile_options(-fsanitize=fuzzer-no-link,address,undefined -fno-sanitize-recover=all
                      -fno-omit-frame-pointer)
  add_link_options(-fsanitize=address,undefined)
endif()
