# `cpack -G DEB` in the build directory (or the `package` target): hermes-sim_<version>_<arch>.deb
# holding what cmake/install.cmake installs, under /usr. Depends comes from dpkg-shlibdeps
# (dpkg-dev) on the binary: the exact runtime library packages it links (Boost.Program_options,
# zlib, libssl, Open MPI when found, libstdc++, libc), never a hand-kept list that could go stale.
# hermes-plot needs Debian's python3 with matplotlib and numpy: Recommends, since the simulator
# runs without them.
set(CPACK_PACKAGE_NAME hermes-sim)
set(CPACK_PACKAGE_VERSION ${PROJECT_VERSION})
set(CPACK_PACKAGE_DESCRIPTION_SUMMARY
    "discrete-event simulator of heterogeneous parameter-server training clusters")
set(CPACK_PACKAGE_DESCRIPTION
    "hermes-sim simulates BSP, ASP, SSP, E-BSP and Hermes training on Azure-like node profiles and
the network between them, executing the real MNIST / CIFAR-10 training math. hermes-plot draws
figures of its run and sweep directories.")
set(CPACK_PACKAGE_CONTACT "hermes-sim developers <hermes-sim@localhost>")
set(CPACK_GENERATOR DEB)
set(CPACK_STRIP_FILES ON)
set(CPACK_DEBIAN_FILE_NAME DEB-DEFAULT)  # hermes-sim_0.1.0_amd64.deb
set(CPACK_DEBIAN_PACKAGE_SECTION science)
set(CPACK_DEBIAN_PACKAGE_RECOMMENDS "python3, python3-matplotlib, python3-numpy")
set(CPACK_DEBIAN_PACKAGE_SHLIBDEPS ON)
# Checked when cpack runs, not at configure time: dpkg-shlibdeps may be installed in between.
set(CPACK_PROJECT_CONFIG_FILE ${CMAKE_SOURCE_DIR}/cmake/cpack_checks.cmake)
include(CPack)
