# Run by ctest (tests/package/CMakeLists.txt passes the variables): installs BUILD_DIR into
# WORK_DIR/prefix and builds and runs the examples against that prefix. Fails on the first problem,
# naming it.
cmake_minimum_required(VERSION 3.24)
set(prefix ${WORK_DIR}/prefix)
file(REMOVE_RECURSE ${WORK_DIR})
file(MAKE_DIRECTORY ${WORK_DIR})

function(run what)
  execute_process(COMMAND ${ARGN} RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
  if(NOT rc EQUAL 0)
    message(FATAL_ERROR "${what} failed (${rc}):\n${ARGN}\n${out}\n${err}")
  endif()
  set(run_output "${out}" PARENT_SCOPE)
endfunction()

run("cmake --install" ${CMAKE_COMMAND} --install ${BUILD_DIR} --prefix ${prefix})

# The package files and the exported targets.
foreach(f lib/cmake/cbi/cbiConfig.cmake lib/cmake/cbi/cbiConfigVersion.cmake
          lib/cmake/cbi/cbiTargets.cmake include/cbi/remap/order.hpp include/cbi/sim/simulate.hpp
          lib/libcbi_sim.a)
  if(NOT EXISTS ${prefix}/${f})
    message(FATAL_ERROR "the install lacks ${f}")
  endif()
endforeach()

# find_package with COMPONENTS: the three targets are components (it set cbi_FOUND to FALSE, no
# reason given, for any), another name is refused naming them; cbi::sim brings the threads library
# its tune runs on.
function(configure_components components)
  set(dir ${WORK_DIR}/components)
  file(REMOVE_RECURSE ${dir})
  file(WRITE ${dir}/CMakeLists.txt "cmake_minimum_required(VERSION 3.24)
project(components LANGUAGES CXX)
find_package(cbi 0.1 REQUIRED COMPONENTS ${components})
get_target_property(links cbi::sim INTERFACE_LINK_LIBRARIES)
message(STATUS \"cbi::sim links \${links}\")
")
  execute_process(COMMAND ${CMAKE_COMMAND} -S ${dir} -B ${dir}/build -G ${GENERATOR}
                          -DCMAKE_PREFIX_PATH=${prefix} -DCMAKE_FIND_USE_PACKAGE_REGISTRY=OFF
                          -DCMAKE_CXX_COMPILER=${CXX}
                  RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
  set(components_rc ${rc} PARENT_SCOPE)
  set(components_output "${out}${err}" PARENT_SCOPE)
endfunction()
configure_components("sim;remap;base")
if(NOT components_rc EQUAL 0 OR NOT components_output MATCHES "cbi::sim links [^\n]*Threads::Threads")
  message(FATAL_ERROR "find_package(cbi COMPONENTS sim remap base):\n${components_output}")
endif()
configure_components("sim;viz")
if(components_rc EQUAL 0 OR NOT components_output MATCHES
   "cbi has no component 'viz'; allowed: remap, base, sim")
  message(FATAL_ERROR "find_package(cbi COMPONENTS viz) was not refused by name:\n${components_output}")
endif()

# Public headers include only public headers: each installed header compiles alone with nothing
# but the prefix on the include path; none is a command-line header or names Boost.
file(GLOB_RECURSE headers RELATIVE ${prefix}/include ${prefix}/include/*.hpp)
list(LENGTH headers count)
if(count LESS 20)
  message(FATAL_ERROR "only ${count} headers installed under ${prefix}/include")
endif()
foreach(h ${headers})
  if(h MATCHES "^cbi/cli/")
    message(FATAL_ERROR "a command-line header is installed: ${h}")
  endif()
  file(READ ${prefix}/include/${h} text)
  if(text MATCHES "boost")
    message(FATAL_ERROR "installed header ${h} mentions boost")
  endif()
  file(WRITE ${WORK_DIR}/header.cpp "#include <${h}>\n")
  # With a consumer's strict warnings, on a plain -I (CMake's imported targets use -isystem, which
  # hides them): set_hash.hpp's __int128 was a -Wpedantic warning in every program using the sim.
  run("the installed header ${h} alone" ${CXX} -std=c++17 -fsyntax-only -Wall -Wextra -Wpedantic
      -Wshadow -Werror -I${prefix}/include ${WORK_DIR}/header.cpp)
endforeach()
message(STATUS "${count} installed headers compile alone")

# `cbi --version` and the package's version are the same number.
run("cbi --version" ${prefix}/bin/cbi --version)
if(NOT run_output MATCHES "^cbi ${VERSION} ")
  message(FATAL_ERROR "`cbi --version` prints '${run_output}', the package is ${VERSION}")
endif()

# The Python module, where the install put it (a fresh prefix is on no interpreter's path, so it
# falls back to lib/pythonX.Y/site-packages), imports with that folder on PYTHONPATH.
if(PYTHON)
  file(GLOB_RECURSE modules ${prefix}/lib/python*/cbi.*.so)
  list(LENGTH modules count)
  if(NOT count EQUAL 1)
    message(FATAL_ERROR "expected one Python module cbi under ${prefix}/lib, found: ${modules}")
  endif()
  get_filename_component(site ${modules} DIRECTORY)
  run("import cbi from the prefix" ${CMAKE_COMMAND} -E env PYTHONPATH=${site} ${PYTHON} -c
      "print(__import__('cbi').__file__, __import__('cbi').Order('column:32'), __import__('cbi').__version__)")
  if(NOT run_output MATCHES "^${site}/cbi[^ ]* column:32 ${VERSION}\n")
    message(FATAL_ERROR "the installed module did not import from ${site}:\n${run_output}")
  endif()
endif()

string(REPLACE "|" ";" launchers "${LAUNCHERS}")
string(REPLACE "|" ";" architectures "${CUDA_ARCHITECTURES}")
set(flags "")
if(SANITIZE)
  set(flags -DCMAKE_EXE_LINKER_FLAGS=-fsanitize=address,undefined)
endif()

# example name, then what its output must contain.
function(example name)
  set(src ${SOURCE_DIR}/examples/${name})
  set(bin ${WORK_DIR}/${name})
  run("configuring examples/${name}" ${CMAKE_COMMAND} -S ${src} -B ${bin} -G ${GENERATOR}
      -DCMAKE_BUILD_TYPE=Release -DCMAKE_PREFIX_PATH=${prefix}
      -DCMAKE_FIND_USE_PACKAGE_REGISTRY=OFF -DCMAKE_CXX_COMPILER=${CXX}
      -DCMAKE_CUDA_COMPILER=${CUDA} "-DCMAKE_CUDA_ARCHITECTURES=${architectures}"
      ${launchers} ${flags})
  # The version the package reports, and that it came from the prefix.
  if(NOT run_output MATCHES "cbi ${VERSION} from ${prefix}/lib/cmake/cbi")
    message(FATAL_ERROR "examples/${name} did not find cbi ${VERSION} in ${prefix}:\n${run_output}")
  endif()
  run("building examples/${name}" ${CMAKE_COMMAND} --build ${bin})
  set(example_bin ${bin} PARENT_SCOPE)
endfunction()

example(own-kernel)
# 1000 is not a multiple of 32: column:32's last column is narrower (eq. 4.2).
run("examples/own-kernel" ${example_bin}/own_kernel 1000 700)
message(STATUS "own-kernel:\n${run_output}")
foreach(order linear column:32)
  if(NOT run_output MATCHES "cpu ${order}: 1000x700, every element visited exactly once")
    message(FATAL_ERROR "own-kernel did not check ${order} on the CPU")
  endif()
  if(NOT run_output MATCHES "no CUDA device" AND
     NOT run_output MATCHES "gpu ${order}: [0-9.]+ ms median of 20 runs, output matches")
    message(FATAL_ERROR "own-kernel did not check ${order} on the GPU")
  endif()
endforeach()

# examples/simulate prints what the installed `cbi` prints for the same configurations.
example(simulate)
run("examples/simulate" ${example_bin}/simulate)
set(printed "${run_output}")
message(STATUS "simulate:\n${printed}")
function(expect line)
  string(FIND "${printed}" "${line}" at)
  if(at EQUAL -1)
    message(FATAL_ERROR "examples/simulate did not print '${line}' as the CLI does:\n${printed}")
  endif()
endfunction()
foreach(order linear column:32)
  set(common --size 512 --stencil 9x9 --order ${order} --format json)
  run("cbi simulate" ${prefix}/bin/cbi simulate ${common} --line-bytes 128 --cache-bytes 32KiB
      --ways 8)
  string(JSON accesses GET "${run_output}" rows 0 accesses)
  string(JSON misses GET "${run_output}" rows 0 misses)
  expect("${order} sequential: accesses=${accesses} misses=${misses} ")
  run("cbi mrc" ${prefix}/bin/cbi mrc ${common} --line-bytes 128 --sizes 256,1024)
  string(JSON m256 GET "${run_output}" rows 0 misses)
  string(JSON m1024 GET "${run_output}" rows 1 misses)
  expect("${order} mrc: misses at 256 lines=${m256}, at 1024 lines=${m1024}\n")
  run("cbi simulate --model gpu" ${prefix}/bin/cbi simulate --model gpu --device h100 --block 256
      ${common})
  string(JSON sectors GET "${run_output}" metrics l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum)
  string(JSON hits GET "${run_output}" metrics
         l1tex__t_sectors_pipe_lsu_mem_global_op_ld_lookup_hit.sum)
  set(hit_name l1tex__t_sectors_pipe_lsu_mem_global_op_ld_lookup_hit.sum)
  expect("${order} gpu: l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum=${sectors} ${hit_name}=${hits} ")
endforeach()
run("cbi tune" ${prefix}/bin/cbi tune --workload matmul --size 256 --device h100 --block 256
    --orders linear,column:8,column:32,tile:8 --format json)
string(JSON rows LENGTH "${run_output}" ranking)
set(ranking "tune:")
math(EXPR last "${rows} - 1")
foreach(k RANGE ${last})
  string(JSON order GET "${run_output}" ranking ${k} order)
  string(JSON group GET "${run_output}" ranking ${k} tie_group)
  string(APPEND ranking " ${order}(group ${group})")
endforeach()
expect("${ranking}\n")

# examples/own-workload: the transpose as a workload of your own. Its runs, written as cbi's trace,
# replay in the installed `cbi` with the counts the example printed.
example(own-workload)
run("examples/own-workload" ${example_bin}/own_workload 256 192 ${WORK_DIR}/transpose)
set(printed "${run_output}")
message(STATUS "own-workload:\n${printed}")
foreach(order linear column:32)
  string(REPLACE ":" "" file ${order})
  set(trace ${WORK_DIR}/transpose-${file}.trace)
  run("cbi simulate --trace" ${prefix}/bin/cbi simulate --trace ${trace} --line-bytes 128
      --cache-bytes 32KiB --ways 8 --format json)
  string(JSON accesses GET "${run_output}" rows 0 accesses)
  string(JSON loads GET "${run_output}" rows 0 loads)
  string(JSON stores GET "${run_output}" rows 0 stores)
  string(JSON misses GET "${run_output}" rows 0 misses)
  if(NOT accesses EQUAL 98304 OR NOT loads EQUAL 49152 OR NOT stores EQUAL 49152)
    message(FATAL_ERROR "the transpose's trace has ${loads} loads, ${stores} stores")
  endif()
  string(FIND "${printed}" "${order} sequential: accesses=${accesses} loads=${loads} stores=${stores} misses=${misses} " at)
  if(at EQUAL -1)
    message(FATAL_ERROR "examples/own-workload's ${order} counts differ from its trace's "
                        "(misses ${misses}):\n${printed}")
  endif()
  run("cbi simulate --model gpu --trace" ${prefix}/bin/cbi simulate --model gpu --trace ${trace}
      --format json)
  string(JSON sectors GET "${run_output}" metrics l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum)
  string(JSON hits GET "${run_output}" metrics
         l1tex__t_sectors_pipe_lsu_mem_global_op_ld_lookup_hit.sum)
  string(FIND "${printed}" "l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum=${sectors} l1tex__t_sectors_pipe_lsu_mem_global_op_ld_lookup_hit.sum=${hits} " at)
  if(at EQUAL -1)
    message(FATAL_ERROR "examples/own-workload's ${order} GPU counts differ from its trace's "
                        "(${sectors} sectors, ${hits} hits):\n${printed}")
  endif()
endforeach()
