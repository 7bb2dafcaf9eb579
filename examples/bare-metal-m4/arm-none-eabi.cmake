# CMake toolchain file: bare-metal Cortex-M4 with its single-precision FPU, GNU Arm toolchain
# (Debian: gcc-arm-none-eabi, libnewlib-arm-none-eabi). Use: cmake --toolchain arm-none-eabi.cmake ...
set(CMAKE_SYSTEM_NAME Generic)
set(CMAKE_SYSTEM_PROCESSOR arm)
set(CMAKE_C_COMPILER arm-none-eabi-gcc)

# No start-up code is linked by default, so CMake's compiler check builds a library, not a program.
set(CMAKE_TRY_COMPILE_TARGET_TYPE STATIC_LIBRARY)

# The cpu flags go to every compile and link: the C library (newlib) is picked to match them.
set(CPU_FLAGS "-mcpu=cortex-m4 -mthumb -mfpu=fpv4-sp-d16 -mfloat-abi=hard")
set(CMAKE_C_FLAGS_INIT "${CPU_FLAGS}")
set(CMAKE_EXE_LINKER_FLAGS_INIT "${CPU_FLAGS}")

# Libraries and headers come from the toolchain's sysroot, programs from the host.
set(CMAKE_FIND_ROOT_PATH_MODE_PROGRAM NEVER)
set(CMAKE_FIND_ROOT_PATH_MODE_LIBRARY ONLY)
set(CMAKE_FIND_ROOT_PATH_MODE_INCLUDE ONLY)
