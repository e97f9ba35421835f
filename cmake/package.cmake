# `cpack -G DEB` in the build directory (or the `package` target): one Debian package per install
# component (cmake/install.cmake), under /usr:
#   hermes-sim_<version>_<arch>.deb      the simulator without MPI, hermes-plot, the share and doc
#                                        directories, the manual pages
#   hermes-sim-mpi_<version>_<arch>.deb  hermes-sim-mpi, the same simulator linked with MPI, which
#                                        `mpirun -n K hermes-sim sweep` runs (only when CMake found
#                                        MPI)
# Each package's Depends comes from dpkg-shlibdeps (dpkg-dev) on its own binary: the exact runtime
# library packages it links (Boost.Program_options, zlib, libssl, libstdc++, libc; Open MPI only
# for hermes-sim-mpi), never a hand-kept list that could go stale. hermes-sim-mpi also depends on
# hermes-sim of the same version (its home, hermes-plot, the manual). Open MPI is an optional
# feature, so hermes-sim only Recommends hermes-sim-mpi, as it does Debian's python3 with
# matplotlib and numpy for hermes-plot: the simulator runs without them.
set(CPACK_PACKAGE_NAME hermes-sim)
set(CPACK_PACKAGE_VERSION ${PROJECT_VERSION})
# Each package's Description is its component's (first line: the synopsis). No
# CPACK_PACKAGE_DESCRIPTION_SUMMARY: CPack would put it above every package's own synopsis.
# The Maintainer field. The project has no mailing address, so the default says so with a
# reserved, never-delivered domain (.invalid, RFC 2606) rather than a plausible-looking one; whoever
# distributes the packages sets their own: -DHERMES_PACKAGE_MAINTAINER="Name <address>".
set(HERMES_PACKAGE_MAINTAINER "hermes-sim developers <hermes-sim@invalid>" CACHE STRING
    "Maintainer field of the Debian packages (\"Name <address>\")")
set(CPACK_PACKAGE_CONTACT "${HERMES_PACKAGE_MAINTAINER}")
set(CPACK_DEBIAN_PACKAGE_MAINTAINER "${HERMES_PACKAGE_MAINTAINER}")
set(CPACK_GENERATOR DEB)
set(CPACK_STRIP_FILES ON)
set(CPACK_DEBIAN_PACKAGE_SECTION science)
set(CPACK_DEBIAN_PACKAGE_SHLIBDEPS ON)

set(CPACK_DEB_COMPONENT_INSTALL ON)
# `license` (LICENSE) is for installs outside Debian only: the packages' copyright files name the
# licence, whose text Debian keeps in /usr/share/common-licenses/Apache-2.0.
set(CPACK_COMPONENTS_ALL main)
set(CPACK_DEBIAN_MAIN_PACKAGE_NAME hermes-sim)
set(CPACK_DEBIAN_MAIN_FILE_NAME DEB-DEFAULT)  # hermes-sim_0.1.0_amd64.deb
set(CPACK_DEBIAN_MAIN_DESCRIPTION
    "discrete-event simulator of heterogeneous parameter-server training clusters
hermes-sim simulates BSP, ASP, SSP, E-BSP and Hermes training on Azure-like node profiles and
the network between them, executing the real MNIST / CIFAR-10 training math. hermes-plot draws
figures of its run and sweep directories; the Python module hermes_sim runs scenarios and reads
results as pandas DataFrames. Sweeps across mpirun ranks need hermes-sim-mpi.")
# python3-matplotlib for hermes-plot; python3-pandas for the Python module hermes_sim.
set(_hermes_recommends "python3, python3-matplotlib, python3-numpy, python3-pandas")
if(TARGET hermes-sim-mpi)
  list(APPEND CPACK_COMPONENTS_ALL mpi)
  string(APPEND _hermes_recommends ", hermes-sim-mpi")
  set(CPACK_DEBIAN_MPI_PACKAGE_NAME hermes-sim-mpi)
  set(CPACK_DEBIAN_MPI_FILE_NAME DEB-DEFAULT)  # hermes-sim-mpi_0.1.0_amd64.deb
  set(CPACK_DEBIAN_MPI_PACKAGE_SECTION science)
  set(CPACK_DEBIAN_MPI_DESCRIPTION "hermes-sim built with Open MPI, for sweeps across mpirun ranks
hermes-sim-mpi is hermes-sim linked with Open MPI: `mpirun -n K hermes-sim sweep ...` runs it on
every rank (hermes-sim runs it when an MPI launcher starts it), and the sweep's points are shared
among the ranks. Without it, hermes-sim sweeps on the threads of one machine.")
  # The same version of hermes-sim: its home (scenarios, reference tables), hermes-plot, the manual.
  set(CPACK_DEBIAN_MPI_PACKAGE_DEPENDS "hermes-sim (= ${PROJECT_VERSION})")
endif()
set(CPACK_DEBIAN_MAIN_PACKAGE_RECOMMENDS "${_hermes_recommends}")
# Checked when cpack runs, not at configure time: dpkg-shlibdeps may be installed in between.
set(CPACK_HERMES_DOCS ${HERMES_DOCS})
set(CPACK_HERMES_CHANGELOG ${CMAKE_SOURCE_DIR}/packaging/changelog)
set(CPACK_PROJECT_CONFIG_FILE ${CMAKE_SOURCE_DIR}/cmake/cpack_checks.cmake)
include(CPack)
