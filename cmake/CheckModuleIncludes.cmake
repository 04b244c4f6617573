# cmake -DMODULE=name -DUSES=a,b -DFILES=f1,f2 -DSTAMP=file -P CheckModuleIncludes.cmake
# Fails when a file of the part MODULE includes a project header ("folder/x.h") of a folder that is
# neither MODULE, fcsn (the public headers) nor one of USES (cmake/FcsnModule.cmake); otherwise
# touches STAMP.
string(REPLACE "," ";" uses "${USES}")
string(REPLACE "," ";" files "${FILES}")
set(allowed fcsn ${MODULE} ${uses})
set(violations "")
foreach(file IN LISTS files)
  file(STRINGS "${file}" lines REGEX "^[ \t]*#[ \t]*include[ \t]*\"[a-z_]+/")
  foreach(line IN LISTS lines)
    string(REGEX REPLACE "^[ \t]*#[ \t]*include[ \t]*\"([a-z_]+)/.*$" "\\1" folder "${line}")
    list(FIND allowed "${folder}" at)
    if(at LESS 0)
      string(REGEX REPLACE "^[ \t]*#[ \t]*include[ \t]*\"([^\"]+)\".*$" "\\1" header "${line}")
      get_filename_component(name "${file}" NAME)
      string(APPEND violations "\n  ${MODULE}/${name} includes ${header}")
    endif()
  endforeach()
endforeach()
if(violations)
  message(FATAL_ERROR "${MODULE}/ may include only fcsn/, ${MODULE}/ and: ${uses} "
                      "(its fcsn_module(... USES ...) in ${MODULE}/CMakeLists.txt):${violations}")
endif()
file(TOUCH "${STAMP}")
