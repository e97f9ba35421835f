# `cmake --install build --prefix P`: hermes-sim as an installed tool (README.md, "Install").
#   P/bin/hermes-sim                the simulator; it finds P/share/hermes-sim at run time
#   P/bin/hermes-plot               tools/plot's launcher (figures; Debian's /usr/bin/python3)
#   P/share/hermes-sim/             its home, laid out like the source tree: scenarios/ (with the
#                                   profile catalog), results/reference/, tools/plot + hermes_plot/
#   P/bin/hermes-sim-mpi            the same built with MPI (when CMake finds it): `mpirun -n K
#                                   hermes-sim sweep` runs it (sim/sweep/mpi_session.h)
#   P/share/doc/hermes-sim/         README.md, docs/, results/README.md, the Debian copyright
#                                   and changelog.Debian.gz, LICENSE; scenarios/ and
#                                   results/reference/ as links into the share directory, so that
#                                   every link of README.md resolves there too
#   P/share/man/man1/               hermes-sim.1.gz, hermes-plot.1.gz (generated from --help),
#                                   hermes-sim-mpi.1.gz (a link to hermes-sim.1.gz)
# Components (cmake/package.cmake makes one Debian package of each): `main` (everything but
# hermes-sim-mpi), `mpi` (hermes-sim-mpi, its man page link and its doc directory), `license`
# (LICENSE, for installs outside Debian: a Debian package names it in its copyright file, and the
# text is in /usr/share/common-licenses/Apache-2.0). `cmake --install` installs all three.
# The share directory mirrors the source tree so that every path the code builds from the home
# (scenarios/profiles/azure.json, results/reference/paper-mnist.csv, and tools/hermes_plot's
# <its parent's parent>/results/reference) is the same in both; the binary looks for it at
# <its directory>/HERMES_SHARE_FROM_BIN (sim/common/home_dir.h).
include(GNUInstallDirs)
set(CMAKE_INSTALL_DEFAULT_COMPONENT_NAME main)

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

install(TARGETS hermes-sim RUNTIME DESTINATION ${CMAKE_INSTALL_BINDIR} COMPONENT main)
# The Python module, where Debian's python3 imports from (hermes_sim finds the home from there:
# <prefix>/lib/python3/dist-packages/hermes_sim -> <prefix>/bin -> the share directory).
if(TARGET hermes_sim_core)
  install(TARGETS hermes_sim_core LIBRARY DESTINATION lib/python3/dist-packages/hermes_sim
          COMPONENT main)
  install(FILES ${hermes_py_sources} DESTINATION lib/python3/dist-packages/hermes_sim
          COMPONENT main)
endif()
if(TARGET hermes-sim-mpi)
  install(TARGETS hermes-sim-mpi RUNTIME DESTINATION ${CMAKE_INSTALL_BINDIR} COMPONENT mpi)
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
install(FILES ${CMAKE_SOURCE_DIR}/results/README.md DESTINATION ${HERMES_DOC_DIR}/results)
install(FILES ${CMAKE_SOURCE_DIR}/LICENSE DESTINATION ${HERMES_DOC_DIR} COMPONENT license)

# README.md links scenarios/README.md and results/reference/README.md, which live in the share
# directory: relative links to them from the doc directory (made in the build directory, installed
# as links).
function(hermes_doc_link name target_dir)
  get_filename_component(parent "${HERMES_DOC_DIR}/${name}" DIRECTORY)
  file(RELATIVE_PATH rel "/prefix/${parent}" "/prefix/${target_dir}")
  set(link "${CMAKE_BINARY_DIR}/doc-links/${name}")
  get_filename_component(link_dir "${link}" DIRECTORY)
  file(MAKE_DIRECTORY "${link_dir}")
  file(CREATE_LINK "${rel}" "${link}" SYMBOLIC)
  get_filename_component(dest "${HERMES_DOC_DIR}/${name}" DIRECTORY)
  install(FILES "${link}" DESTINATION "${dest}")
endfunction()
hermes_doc_link(scenarios "${HERMES_SHARE_DIR}/scenarios")
hermes_doc_link(results/reference "${HERMES_SHARE_DIR}/results/reference")

# Debian's copyright file (DEP-5: the licence and its holders) and changelog (packaging/), and
# the manual pages generated from the binaries' --help (packaging/make-docs: deterministic, dated
# by the changelog's newest entry). Each package has its own doc directory (Debian Policy 12.5).
# make-docs runs under Debian's /usr/bin/python3, which runs hermes-plot (whose --help it reads);
# without it they are left out (cpack refuses to make a .deb without them: cpack_checks.cmake).
install(FILES ${CMAKE_SOURCE_DIR}/packaging/copyright DESTINATION ${HERMES_DOC_DIR})
if(TARGET hermes-sim-mpi)
  install(FILES ${CMAKE_SOURCE_DIR}/packaging/copyright
          DESTINATION ${CMAKE_INSTALL_DATAROOTDIR}/doc/hermes-sim-mpi COMPONENT mpi)
endif()
if(EXISTS /usr/bin/python3)
  set(HERMES_DOCS ON)
  set(HERMES_CHANGELOG_GZ "${CMAKE_BINARY_DIR}/packaging/changelog.Debian.gz")
  set(HERMES_MAN_DIR "${CMAKE_BINARY_DIR}/packaging/man")
  set(HERMES_MAN_PAGES "${HERMES_MAN_DIR}/hermes-sim.1.gz" "${HERMES_MAN_DIR}/hermes-plot.1.gz")
  set(HERMES_MAKE_DOCS /usr/bin/python3 ${CMAKE_SOURCE_DIR}/packaging/make-docs)
  add_custom_command(OUTPUT "${HERMES_CHANGELOG_GZ}"
                     COMMAND ${HERMES_MAKE_DOCS} gzip ${CMAKE_SOURCE_DIR}/packaging/changelog
                             "${HERMES_CHANGELOG_GZ}"
                     DEPENDS ${CMAKE_SOURCE_DIR}/packaging/changelog
                             ${CMAKE_SOURCE_DIR}/packaging/make-docs
                     COMMENT "packaging/changelog -> changelog.Debian.gz" VERBATIM)
  file(GLOB_RECURSE _hermes_plot_py CONFIGURE_DEPENDS ${CMAKE_SOURCE_DIR}/tools/hermes_plot/*.py)
  add_custom_command(OUTPUT ${HERMES_MAN_PAGES}
                     COMMAND ${HERMES_MAKE_DOCS} man --hermes-sim $<TARGET_FILE:hermes-sim>
                             --tools ${CMAKE_SOURCE_DIR}/tools
                             --changelog ${CMAKE_SOURCE_DIR}/packaging/changelog
                             --out "${HERMES_MAN_DIR}"
                     DEPENDS hermes-sim ${CMAKE_SOURCE_DIR}/packaging/make-docs
                             ${CMAKE_SOURCE_DIR}/packaging/changelog ${_hermes_plot_py}
                     COMMENT "manual pages from hermes-sim --help and hermes-plot --help" VERBATIM)
  add_custom_target(hermes_docs ALL DEPENDS "${HERMES_CHANGELOG_GZ}" ${HERMES_MAN_PAGES})
  install(FILES "${HERMES_CHANGELOG_GZ}" DESTINATION ${HERMES_DOC_DIR})
  install(FILES ${HERMES_MAN_PAGES} DESTINATION ${CMAKE_INSTALL_MANDIR}/man1)
  if(TARGET hermes-sim-mpi)
    install(FILES "${HERMES_CHANGELOG_GZ}"
            DESTINATION ${CMAKE_INSTALL_DATAROOTDIR}/doc/hermes-sim-mpi COMPONENT mpi)
    file(MAKE_DIRECTORY "${HERMES_MAN_DIR}")
    file(CREATE_LINK hermes-sim.1.gz "${HERMES_MAN_DIR}/hermes-sim-mpi.1.gz" SYMBOLIC)
    install(FILES "${HERMES_MAN_DIR}/hermes-sim-mpi.1.gz" DESTINATION ${CMAKE_INSTALL_MANDIR}/man1
            COMPONENT mpi)
  endif()
else()
  set(HERMES_DOCS OFF)
  message(WARNING "/usr/bin/python3 not found (Debian package python3; tools/deps installs it): "
                  "no manual pages nor changelog.Debian.gz will be installed")
endif()
