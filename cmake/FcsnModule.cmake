# fcsn_module(NAME SOURCES src... [USES module...] [PRIVATE_LIBS target...]): the object library
# fcsn_<NAME>_objects of the folder <NAME>/, one part of the fcsn library, and its boundary.
#
# USES lists the folders whose headers this part may include ("linalg/ordering.h"); the public
# headers (include/fcsn) and its own folder are always allowed. Every build checks every source
# and header of the folder (cmake/CheckModuleIncludes.cmake) before compiling it: an #include of
# another part's header that USES does not list fails the build, naming the file and the rule.
# The parts and what they use are therefore written once, here in each folder's CMakeLists.txt,
# and the picture in README "Layout" is enforced rather than described.
set(FCSN_CHECK_MODULE_INCLUDES "${CMAKE_CURRENT_LIST_DIR}/CheckModuleIncludes.cmake")

function(fcsn_module name)
  cmake_parse_arguments(ARG "" "" "SOURCES;USES;PRIVATE_LIBS" ${ARGN})
  set(target fcsn_${name}_objects)
  add_library(${target} OBJECT ${ARG_SOURCES})
  target_include_directories(${target} PRIVATE "${PROJECT_SOURCE_DIR}")
  target_link_libraries(${target} PUBLIC fcsn_headers)
  if(ARG_PRIVATE_LIBS)
    target_link_libraries(${target} PRIVATE ${ARG_PRIVATE_LIBS})
  endif()
  file(GLOB files CONFIGURE_DEPENDS "${CMAKE_CURRENT_SOURCE_DIR}/*.h" "${CMAKE_CURRENT_SOURCE_DIR}/*.cc")
  set(stamp "${CMAKE_CURRENT_BINARY_DIR}/${name}_includes.checked")
  string(REPLACE ";" "," uses "${ARG_USES}")
  string(REPLACE ";" "," file_list "${files}")
  add_custom_command(
    OUTPUT "${stamp}"
    COMMAND "${CMAKE_COMMAND}" -DMODULE=${name} "-DUSES=${uses}" "-DFILES=${file_list}"
            "-DSTAMP=${stamp}" -P "${FCSN_CHECK_MODULE_INCLUDES}"
    DEPENDS ${files} "${FCSN_CHECK_MODULE_INCLUDES}"
    COMMENT "Checking the includes of ${name}/ (may use: fcsn ${ARG_USES})"
    VERBATIM)
  add_custom_target(${target}_boundary DEPENDS "${stamp}")
  add_dependencies(${target} ${target}_boundary)
endfunction()
