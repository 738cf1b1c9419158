# cmake --install: libwarpsim, the `warpsim` command, the public headers, the CUDA shim and a
# relocatable CMake package, for projects that unit-test their warp code on the CPU:
#
#   find_package(warpsim REQUIRED)                      # warpsim::sim, warpsim::warpsim
#   target_link_libraries(my_tests PRIVATE warpsim::sim)
#
# Layout under the prefix (GNUInstallDirs):
#   bin/warpsim                  lib/libwarpsim.so           lib/cmake/warpsim/*.cmake
#   libexec/warpsim/warpsim-kernel-host (runs each kernel; found relative to libwarpsim)
#   include/warpsim/*.hpp        include/warpsim/shim/       (cuda_runtime.h, cooperative_groups.h,
#                                                             warpsim/cuda_shim.hpp, ...)
# libwarpsim finds the shim relative to itself (sim/runner/CMakeLists.txt), `warpsim` finds
# libwarpsim through a relative RPATH, and the package config uses relative paths only: the
# prefix can move.
include(CMakePackageConfigHelpers)

install(TARGETS warpsim_sim EXPORT warpsimTargets
  LIBRARY DESTINATION ${CMAKE_INSTALL_LIBDIR}
  RUNTIME DESTINATION ${CMAKE_INSTALL_BINDIR})

file(RELATIVE_PATH bin_to_lib ${CMAKE_INSTALL_FULL_BINDIR} ${CMAKE_INSTALL_FULL_LIBDIR})
# INSTALL_RPATH_USE_LINK_PATH keeps libraries outside the build tree reachable (NVRTC, in GPU
# builds); the build's own path to libwarpsim is replaced by the relative one.
set_target_properties(warpsim PROPERTIES EXPORT_NAME warpsim
  INSTALL_RPATH "$ORIGIN/${bin_to_lib}" INSTALL_RPATH_USE_LINK_PATH ON)
install(TARGETS warpsim EXPORT warpsimTargets RUNTIME DESTINATION ${CMAKE_INSTALL_BINDIR})

# The kernel host, where libwarpsim looks for it (sim/runner/CMakeLists.txt).
file(RELATIVE_PATH host_to_lib ${CMAKE_INSTALL_FULL_LIBEXECDIR}/warpsim ${CMAKE_INSTALL_FULL_LIBDIR})
set_target_properties(warpsim-kernel-host PROPERTIES INSTALL_RPATH "$ORIGIN/${host_to_lib}")
install(TARGETS warpsim-kernel-host RUNTIME DESTINATION ${CMAKE_INSTALL_LIBEXECDIR}/warpsim)

# Every layer's headers (sim/*/include/warpsim) into one include/warpsim.
foreach(dir ${WARPSIM_PUBLIC_HEADER_DIRS})
  install(DIRECTORY ${dir} DESTINATION ${CMAKE_INSTALL_INCLUDEDIR} FILES_MATCHING PATTERN "*.hpp")
endforeach()
install(DIRECTORY ${PROJECT_SOURCE_DIR}/sim/shim/ DESTINATION ${WARPSIM_INSTALL_SHIM_DIR})

install(EXPORT warpsimTargets NAMESPACE warpsim:: DESTINATION ${WARPSIM_INSTALL_CMAKE_DIR})
configure_package_config_file(${CMAKE_CURRENT_LIST_DIR}/warpsimConfig.cmake.in
  ${PROJECT_BINARY_DIR}/warpsimConfig.cmake INSTALL_DESTINATION ${WARPSIM_INSTALL_CMAKE_DIR}
  NO_SET_AND_CHECK_MACRO)
# 0.x: a minor release may change the API, so only the same minor version is compatible.
write_basic_package_version_file(${PROJECT_BINARY_DIR}/warpsimConfigVersion.cmake
  COMPATIBILITY SameMinorVersion)
install(FILES ${PROJECT_BINARY_DIR}/warpsimConfig.cmake ${PROJECT_BINARY_DIR}/warpsimConfigVersion.cmake
  DESTINATION ${WARPSIM_INSTALL_CMAKE_DIR})

# Lessons, for `warpsim walkthrough` (found relative to the executable: ../share/warpsim/lessons).
install(DIRECTORY ${PROJECT_SOURCE_DIR}/lessons/ DESTINATION ${CMAKE_INSTALL_DATADIR}/warpsim/lessons)
