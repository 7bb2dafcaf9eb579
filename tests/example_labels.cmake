# Run by ctest after the tests are discovered (tests/CMakeLists.txt): labels the example tests examples,
# beside e2e (host) or qemu (Cortex-M4), so that `ctest -L examples` runs them all, and the strict-warning
# builds warnings, beside e2e; the sanitizer pass leaves both out, since they build with their own flags
# (gtest_discover_tests cannot give one test two labels).
foreach(test IN LISTS microaot_examples)
  set_tests_properties("${test}" PROPERTIES LABELS "e2e;examples")
endforeach()
foreach(test IN LISTS microaot_qemu_examples)
  set_tests_properties("${test}" PROPERTIES LABELS "qemu;examples")
endforeach()
foreach(test IN LISTS microaot_warning_builds)
  set_tests_properties("${test}" PROPERTIES LABELS "e2e;warnings")
endforeach()
