# `cmake --install` rules for embedders: the public headers (glint/*.h and the generated
# glint/version.h), the shared library libglint.so (glslang and SPIRV-Tools inside), the
# static libraries that make up glint::glint, pkg-config files (glint.pc for the shared
# library, glint-static.pc for the static ones) and a CMake package (glintConfig.cmake,
# its version file and the exported targets) so a consumer writes
#   find_package(glint REQUIRED)
#   target_link_libraries(app PRIVATE glint::glint)          # static
#   target_link_libraries(app PRIVATE glint::glint_shared)   # libglint.so
# Everything is in the install component "glint" (`cmake --install build --component
# glint` installs only this). Included at the end of the top-level CMakeLists.txt, once
# every target exists.
include(CMakePackageConfigHelpers)
include(GNUInstallDirs)

set(GLINT_INSTALL_CMAKEDIR "${CMAKE_INSTALL_LIBDIR}/cmake/glint" CACHE STRING
    "Where glint's CMake package files are installed, relative to the prefix")
set(GLINT_GLSLANG_VERSION_MAJOR 12)

# glint plus every library of this project it links, however many the SPIR-V layer
# grows into: an exported target must not depend on an unexported one.
function(glint_collect_project_libraries target out_var)
  set(seen ${${out_var}})
  if(NOT TARGET ${target} OR ${target} IN_LIST seen)
    return()
  endif()
  get_target_property(imported ${target} IMPORTED)
  get_target_property(aliased ${target} ALIASED_TARGET)
  if(imported OR aliased)
    return()
  endif()
  list(APPEND seen ${target})
  get_target_property(links ${target} LINK_LIBRARIES)
  foreach(link IN LISTS links)
    if(TARGET "${link}")
      glint_collect_project_libraries(${link} seen)
    endif()
  endforeach()
  set(${out_var} ${seen} PARENT_SCOPE)
endfunction()

set(GLINT_INSTALLED_LIBRARIES "")
glint_collect_project_libraries(glint GLINT_INSTALLED_LIBRARIES)

install(TARGETS ${GLINT_INSTALLED_LIBRARIES} glint_shared EXPORT glintTargets
        ARCHIVE DESTINATION "${CMAKE_INSTALL_LIBDIR}" COMPONENT glint
        LIBRARY DESTINATION "${CMAKE_INSTALL_LIBDIR}" COMPONENT glint
        INCLUDES DESTINATION "${CMAKE_INSTALL_INCLUDEDIR}")
# The worker of glint::CompileGlslIsolated, where the library looks for it by default
# (<prefix>/<libexecdir>/glint-compile, compiled into isolated_compile.cpp); exported as
# glint::glint-compile so a consumer can also pass $<TARGET_FILE:glint::glint-compile>.
install(TARGETS glint-compile EXPORT glintTargets
        RUNTIME DESTINATION "${CMAKE_INSTALL_LIBEXECDIR}" COMPONENT glint)
# Glint's glslc, a drop-in for shaderc's (glslc/): the command a build script calls.
install(TARGETS glslc RUNTIME DESTINATION "${CMAKE_INSTALL_BINDIR}" COMPONENT glint)
# Glint's libshaderc (libshaderc/): libshaderc.so.1 with libshaderc's soname, its C
# headers as <shaderc/shaderc.h>, shaderc.pc, and glint::shaderc in the CMake package.
install(TARGETS glint_shaderc EXPORT glintTargets
        LIBRARY DESTINATION "${CMAKE_INSTALL_LIBDIR}" COMPONENT glint
        INCLUDES DESTINATION "${CMAKE_INSTALL_INCLUDEDIR}")
install(DIRECTORY "${GLINT_SOURCE_ROOT}/libshaderc/include/shaderc"
        DESTINATION "${CMAKE_INSTALL_INCLUDEDIR}" COMPONENT glint
        FILES_MATCHING PATTERN "*.h" PATTERN "*.hpp")
set_target_properties(glint_shaderc PROPERTIES EXPORT_NAME shaderc)
install(DIRECTORY "${GLINT_SOURCE_ROOT}/glslang/include/glint"
        DESTINATION "${CMAKE_INSTALL_INCLUDEDIR}" COMPONENT glint
        FILES_MATCHING PATTERN "*.h")
install(DIRECTORY "${GLINT_SOURCE_ROOT}/glslang/types/glint"
        DESTINATION "${CMAKE_INSTALL_INCLUDEDIR}" COMPONENT glint
        FILES_MATCHING PATTERN "*.h")
install(FILES "${CMAKE_BINARY_DIR}/glslang/include/glint/version.h"
        DESTINATION "${CMAKE_INSTALL_INCLUDEDIR}/glint" COMPONENT glint)
install(EXPORT glintTargets NAMESPACE glint:: DESTINATION "${GLINT_INSTALL_CMAKEDIR}"
        COMPONENT glint)

configure_package_config_file(
  "${CMAKE_CURRENT_LIST_DIR}/glintConfig.cmake.in"
  "${CMAKE_BINARY_DIR}/cmake/glintConfig.cmake"
  INSTALL_DESTINATION "${GLINT_INSTALL_CMAKEDIR}")
# 0.x: a minor version may break the API, so only the same minor version is compatible.
write_basic_package_version_file(
  "${CMAKE_BINARY_DIR}/cmake/glintConfigVersion.cmake"
  VERSION "${PROJECT_VERSION}" COMPATIBILITY SameMinorVersion)
install(FILES "${CMAKE_BINARY_DIR}/cmake/glintConfig.cmake"
              "${CMAKE_BINARY_DIR}/cmake/glintConfigVersion.cmake"
        DESTINATION "${GLINT_INSTALL_CMAKEDIR}" COMPONENT glint)

# pkg-config files, relocatable: ${pcfiledir} up to the prefix.
set(GLINT_PKGCONFIG_DIR "${CMAKE_INSTALL_LIBDIR}/pkgconfig")
file(RELATIVE_PATH GLINT_PC_PREFIX_FROM_PCDIR "/prefix/${GLINT_PKGCONFIG_DIR}" "/prefix")
string(REGEX REPLACE "/$" "" GLINT_PC_PREFIX_FROM_PCDIR "${GLINT_PC_PREFIX_FROM_PCDIR}")
foreach(pc glint glint-static shaderc)
  configure_file("${CMAKE_CURRENT_LIST_DIR}/${pc}.pc.in" "${CMAKE_BINARY_DIR}/pkgconfig/${pc}.pc"
                 @ONLY)
  install(FILES "${CMAKE_BINARY_DIR}/pkgconfig/${pc}.pc" DESTINATION "${GLINT_PKGCONFIG_DIR}"
          COMPONENT glint)
endforeach()

# The in-tree spelling of the installed target, so in-tree consumers (examples/) and
# installed ones write the same name.
if(NOT TARGET glint::glint)
  add_library(glint::glint ALIAS glint)
  add_library(glint::glint_shared ALIAS glint_shared)
endif()
