# cmake -P script behind the package_consumer test (see CMakeLists.txt for the -D variables).
cmake_minimum_required(VERSION 3.25)

# Fails the test with `message` unless `text` contains `part` (plain text, not a regex).
function(require_text text part message)
  string(FIND "${text}" "${part}" at)
  if(at EQUAL -1)
    message(FATAL_ERROR "package test: ${message}:\n${text}")
  endif()
endfunction()

function(step what)
  execute_process(COMMAND ${ARGN} RESULT_VARIABLE status OUTPUT_VARIABLE out ERROR_VARIABLE out)
  if(NOT status EQUAL 0)
    message(FATAL_ERROR "package test: ${what} failed (${status}):\n${out}")
  endif()
  set(step_output "${out}" PARENT_SCOPE)
endfunction()

# README-snippet.md shows the consumer's own code: every line of its code blocks must be a line of
# consumer/ (which this test compiles and runs). `;` and brackets would split CMake lists: masked.
function(check_snippet_is_consumer_code)
  set(consumer_text "")
  foreach(file CMakeLists.txt warp_tests.cpp warp_reduce.cuh)
    file(READ ${PACKAGE_TEST_DIR}/consumer/${file} text)
    string(APPEND consumer_text "${text}\n")
  endforeach()
  file(READ ${PACKAGE_TEST_DIR}/README-snippet.md snippet)
  foreach(text_var consumer_text snippet)
    string(REPLACE ";" "<semicolon>" ${text_var} "${${text_var}}")
    string(REPLACE "[" "<open>" ${text_var} "${${text_var}}")
    string(REPLACE "]" "<close>" ${text_var} "${${text_var}}")
  endforeach()
  string(REPLACE "\n" ";" lines "${snippet}")
  set(in_code OFF)
  foreach(line IN LISTS lines)
    string(STRIP "${line}" line)
    if(line MATCHES "^```")
      if(in_code)
        set(in_code OFF)
      else()
        set(in_code ON)
      endif()
    elseif(in_code AND NOT line STREQUAL "")
      string(FIND "${consumer_text}" "${line}" at)
      if(at EQUAL -1)
        string(REPLACE "<semicolon>" ";" line "${line}")
        string(REPLACE "<open>" "[" line "${line}")
        string(REPLACE "<close>" "]" line "${line}")
        message(FATAL_ERROR "package test: README-snippet.md shows a line that consumer/ does not "
                            "have (keep them the same): ${line}")
      endif()
    endif()
  endforeach()
endfunction()
check_snippet_is_consumer_code()

file(REMOVE_RECURSE ${WORK_DIR})
set(prefix ${WORK_DIR}/prefix)
set(cache ${WORK_DIR}/kernel-cache)  # fresh: every kernel compiles against the installed shim

# Install somewhere else first, then move: nothing may remember where it was installed.
step("cmake --install" ${CMAKE_COMMAND} --install ${BUILD_DIR} --prefix ${WORK_DIR}/staging)
file(RENAME ${WORK_DIR}/staging ${prefix})
file(GLOB_RECURSE package_files ${prefix}/lib*/cmake/warpsim/*.cmake)
foreach(file ${package_files})
  file(READ ${file} text)
  foreach(path ${WORK_DIR}/staging ${BUILD_DIR} ${SOURCE_DIR})
    string(FIND "${text}" "${path}" at)
    if(NOT at EQUAL -1)
      message(FATAL_ERROR "package test: ${file} names ${path}; the package must be relocatable")
    endif()
  endforeach()
endforeach()

set(consumer ${WORK_DIR}/consumer)
step("configuring the consumer"
     ${CMAKE_COMMAND} -S ${PACKAGE_TEST_DIR}/consumer -B ${consumer} -G ${GENERATOR}
     -DCMAKE_PREFIX_PATH=${prefix} -DCMAKE_CXX_COMPILER=${CXX_COMPILER}
     -DCMAKE_BUILD_TYPE=${BUILD_TYPE} -DCMAKE_FIND_PACKAGE_NO_PACKAGE_REGISTRY=ON)
require_text("${step_output}" "from ${prefix}/" "the consumer did not find warpsim in ${prefix}")
step("building the consumer" ${CMAKE_COMMAND} --build ${consumer})
step("the consumer's tests (its doctest suite, the installed warpsim run)"
     ${CMAKE_COMMAND} -E env WARPSIM_CACHE_DIR=${cache} ${CMAKE_CTEST_COMMAND} --test-dir ${consumer} --output-on-failure)

# Every kernel compiled against the installed headers, none against this source tree: the
# compiler's dependency lists in the cache name each header it read.
file(GLOB manifests ${cache}/kernels/*.deps)
if(NOT manifests)
  message(FATAL_ERROR "package test: no compiled kernels in ${cache}")
endif()
# With GCC the shim is precompiled (cache/pch/KEY/warpsim/cuda_shim.hpp.gch, the header linked
# beside it) and no dependency list names it: each link must point into the installation.
set(installed_shim "${prefix}/include/warpsim/shim/warpsim/cuda_shim.hpp")
file(GLOB precompiled ${cache}/pch/*/warpsim/cuda_shim.hpp)
foreach(link ${precompiled})
  file(READ_SYMLINK ${link} target)
  require_text("${target}" "${installed_shim}" "a precompiled shim was built from another shim")
endforeach()
foreach(manifest ${manifests})
  file(READ ${manifest} deps)
  if(NOT precompiled)
    require_text("${deps}" "${installed_shim}" "a kernel did not compile against the installed shim")
  endif()
  string(FIND "${deps}" "${SOURCE_DIR}/sim/" at)
  if(NOT at EQUAL -1)
    message(FATAL_ERROR "package test: a kernel compiled against the source tree:\n${deps}")
  endif()
endforeach()
message(STATUS "package test: installed, relocated; the consumer built and passed")
