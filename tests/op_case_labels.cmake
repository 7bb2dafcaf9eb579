# Run by ctest after the op cases are discovered (tests/CMakeLists.txt). Labels each case e2e, ops and
# ops-<family> from its suite, SharedOps_<family>[_prebuilt] (tests/e2e/ops_test.cpp, families from
# compiler/ir/op_list.def), and ops-prebuilt when it links the prebuilt runtime instead of building the
# folder as a user does. The placeholder for an absent ../shared/ops (suite SharedOps) is e2e and ops.
foreach(test IN LISTS microaot_op_cases)
  set(labels e2e ops)
  if(test MATCHES "^SharedOps_([a-z]+)(_prebuilt)?\\.")
    list(APPEND labels ops-${CMAKE_MATCH_1})
    if(CMAKE_MATCH_2)
      list(APPEND labels ops-prebuilt)
    endif()
  endif()
  set_tests_properties("${test}" PROPERTIES LABELS "${labels}")
endforeach()
