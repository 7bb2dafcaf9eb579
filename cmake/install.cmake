# cmake --install: the self-contained binary (it embeds the runtime and the Cortex-M harness), the runtime's
# sources and headers for reference (microaot/custom_op.h for --custom-op functions), the examples, the docs,
# and a CMake package (find_package(microaot), microaot_add_model). CPack makes a Debian package of the same.
# docs/install.md describes the layout.
include(GNUInstallDirs)
include(CMakePackageConfigHelpers)

set(MICROAOT_INSTALL_DATADIR ${CMAKE_INSTALL_DATADIR}/microaot)
set(MICROAOT_INSTALL_CMAKEDIR ${CMAKE_INSTALL_LIBDIR}/cmake/microaot)

install(TARGETS microaot RUNTIME DESTINATION ${CMAKE_INSTALL_BINDIR})
install(DIRECTORY runtime/include runtime/kernels runtime/executor DESTINATION ${MICROAOT_INSTALL_DATADIR}/runtime
        PATTERN "*_test.cpp" EXCLUDE PATTERN "*_test_util.h" EXCLUDE
        PATTERN "overlap_harness.h" EXCLUDE PATTERN "requantize_reference.h" EXCLUDE)
install(DIRECTORY examples/ DESTINATION ${MICROAOT_INSTALL_DATADIR}/examples PATTERN "build" EXCLUDE)
install(DIRECTORY docs/ DESTINATION ${CMAKE_INSTALL_DOCDIR})
install(FILES README.md DESTINATION ${CMAKE_INSTALL_DOCDIR})

configure_package_config_file(cmake/microaotConfig.cmake.in ${PROJECT_BINARY_DIR}/microaotConfig.cmake
  INSTALL_DESTINATION ${MICROAOT_INSTALL_CMAKEDIR}
  PATH_VARS CMAKE_INSTALL_BINDIR MICROAOT_INSTALL_DATADIR)
write_basic_package_version_file(${PROJECT_BINARY_DIR}/microaotConfigVersion.cmake COMPATIBILITY SameMinorVersion)
install(FILES ${PROJECT_BINARY_DIR}/microaotConfig.cmake ${PROJECT_BINARY_DIR}/microaotConfigVersion.cmake
        DESTINATION ${MICROAOT_INSTALL_CMAKEDIR})

# cpack -G DEB (in the build folder): microaot_<version>_<arch>.deb installing under /usr.
set(CPACK_PACKAGE_NAME microaot)
set(CPACK_PACKAGE_VENDOR microaot)
set(CPACK_PACKAGE_DESCRIPTION_SUMMARY "ahead-of-time compiler from TensorFlow Lite models to dependency-free C99")
set(CPACK_PACKAGE_CONTACT "microaot maintainers")
set(CPACK_GENERATOR DEB)
set(CPACK_PACKAGING_INSTALL_PREFIX /usr)
set(CPACK_DEBIAN_FILE_NAME DEB-DEFAULT)
set(CPACK_DEBIAN_PACKAGE_SECTION devel)
set(CPACK_DEBIAN_PACKAGE_SHLIBDEPS ON)
# What the commands that build C use: run and validate the host C compiler; bench and Cortex-M runs the Arm
# toolchain and QEMU; microaot_add_model CMake.
set(CPACK_DEBIAN_PACKAGE_RECOMMENDS "gcc, make, cmake")
set(CPACK_DEBIAN_PACKAGE_SUGGESTS "gcc-arm-none-eabi, libnewlib-arm-none-eabi, qemu-system-arm")
include(CPack)
