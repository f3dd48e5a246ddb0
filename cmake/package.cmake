# The installed package (`cmake --install build --prefix P`): cbiConfig.cmake, its version file and
# the exported targets under cbi::. Each public target installs itself and its headers in its own
# folder (install(TARGETS ... EXPORT cbiTargets)); this file exports the set. The version is the
# project's (one number, in the root CMakeLists.txt), which `cbi --version` prints too;
# tests/package checks both against an installed prefix.
include(CMakePackageConfigHelpers)

set(CBI_INSTALL_CMAKEDIR ${CMAKE_INSTALL_LIBDIR}/cmake/cbi)
install(EXPORT cbiTargets NAMESPACE cbi:: DESTINATION ${CBI_INSTALL_CMAKEDIR})
configure_package_config_file(${CMAKE_CURRENT_LIST_DIR}/cbiConfig.cmake.in
  ${CMAKE_BINARY_DIR}/package/cbiConfig.cmake INSTALL_DESTINATION ${CBI_INSTALL_CMAKEDIR})
# 0.x: a minor version may change the API.
write_basic_package_version_file(${CMAKE_BINARY_DIR}/package/cbiConfigVersion.cmake
  VERSION ${PROJECT_VERSION} COMPATIBILITY SameMinorVersion)
install(FILES ${CMAKE_BINARY_DIR}/package/cbiConfig.cmake
              ${CMAKE_BINARY_DIR}/package/cbiConfigVersion.cmake
        DESTINATION ${CBI_INSTALL_CMAKEDIR})
