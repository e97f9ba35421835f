# Read by cpack for each generator (CPACK_PROJECT_CONFIG_FILE, cmake/package.cmake). Without
# dpkg-shlibdeps, CPack would write a .deb whose Depends misses the runtime libraries; refuse.
if(CPACK_GENERATOR STREQUAL "DEB")
  find_program(HERMES_DPKG_SHLIBDEPS dpkg-shlibdeps)
  if(NOT HERMES_DPKG_SHLIBDEPS)
    message(FATAL_ERROR "cpack -G DEB: dpkg-shlibdeps not found; it computes the package's "
                        "Depends (CPACK_DEBIAN_PACKAGE_SHLIBDEPS). Install Debian's dpkg-dev "
                        "(tools/deps installs it) and run cpack again.")
  endif()
endif()
