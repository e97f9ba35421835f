# `cmake --install build --prefix P`: hermes-sim as an installed tool (README.md, "Install").
#   P/bin/hermes-sim                the simulator; it finds P/share/hermes-sim at run time
#   P/bin/hermes-plot               tools/plot's launcher (figures; Debian's /usr/bin/python3)
#   P/share/hermes-sim/             its home, laid out like the source tree: scenarios/ (with the
#                                   profile catalog), results/reference/, tools/plot + hermes_plot/
#   P/bin/hermes-sim-mpi            the same built with MPI (when CMake finds it): `mpirun -n K
#                                   hermes-sim sweep` runs it (sim/sweep/mpi_session.h)
#   P/share/doc/hermes-sim/         README.md and docs/
# The share directory mirrors the source tree so that every path the code builds from the home
# (scenarios/profiles/azure.json, results/reference/paper-mnist.csv, and tools/hermes_plot's
# <its parent's parent>/results/reference) is the same in both; the binary looks for it at
# <its directory>/HERMES_SHARE_FROM_BIN (sim/common/home_dir.h).
include(GNUInstallDirs)

set(HERMES_SHARE_DIR "${CMAKE_INSTALL_DATADIR}/hermes-sim")
set(HERMES_DOC_DIR "${CMAKE_INSTALL_DATAROOTDIR}/doc/hermes-sim")

# The path from the bin directory to `dir` (relative to the prefix, like the GNUInstallDirs
# variables): the same under every prefix, which `cmake --install --prefix` may choose at install
# time. Absolute directories are taken as they are (the configured prefix fills a relative one).
function(hermes_relative_to_bin out dir)
  set(bin "${CMAKE_INSTALL_BINDIR}")
  if(IS_ABSOLUTE "${bin}" OR IS_ABSOLUTE "${dir}")
    set(prefix "${CMAKE_INSTALL_PREFIX}")
  else()
    set(prefix "/prefix")
  endif()
  foreach(v bin dir)
    if(NOT IS_ABSOLUTE "${${v}}")
      set(${v} "${prefix}/${${v}}")
    endif()
  endforeach()
  file(RELATIVE_PATH rel "${bin}" "${dir}")
  set(${out} "${rel}" PARENT_SCOPE)
endfunction()
hermes_relative_to_bin(HERMES_SHARE_FROM_BIN "${HERMES_SHARE_DIR}")
target_compile_definitions(hermes_cli PRIVATE HERMES_SHARE_FROM_BIN="${HERMES_SHARE_FROM_BIN}")

install(TARGETS hermes-sim RUNTIME DESTINATION ${CMAKE_INSTALL_BINDIR})
if(TARGET hermes-sim-mpi)
  install(TARGETS hermes-sim-mpi RUNTIME DESTINATION ${CMAKE_INSTALL_BINDIR})
endif()
install(DIRECTORY ${CMAKE_SOURCE_DIR}/scenarios DESTINATION ${HERMES_SHARE_DIR})
install(DIRECTORY ${CMAKE_SOURCE_DIR}/results/reference DESTINATION ${HERMES_SHARE_DIR}/results)
install(PROGRAMS ${CMAKE_SOURCE_DIR}/tools/plot DESTINATION ${HERMES_SHARE_DIR}/tools)
install(DIRECTORY ${CMAKE_SOURCE_DIR}/tools/hermes_plot DESTINATION ${HERMES_SHARE_DIR}/tools
        FILES_MATCHING PATTERN "*.py" PATTERN "__pycache__" EXCLUDE)
hermes_relative_to_bin(HERMES_PLOT_FROM_BIN "${HERMES_SHARE_DIR}/tools/plot")
configure_file(${CMAKE_SOURCE_DIR}/cmake/hermes-plot.in ${CMAKE_BINARY_DIR}/hermes-plot @ONLY)
install(PROGRAMS ${CMAKE_BINARY_DIR}/hermes-plot DESTINATION ${CMAKE_INSTALL_BINDIR})
install(FILES ${CMAKE_SOURCE_DIR}/README.md DESTINATION ${HERMES_DOC_DIR})
install(DIRECTORY ${CMAKE_SOURCE_DIR}/docs DESTINATION ${HERMES_DOC_DIR})
