# Read by cpack for each generator (CPACK_PROJECT_CONFIG_FILE, cmake/package.cmake): refuse to
# write a .deb that would be wrong.
if(CPACK_GENERATOR STREQUAL "DEB")
  # Without dpkg-shlibdeps, CPack would write packages whose Depends misses the runtime libraries.
  find_program(HERMES_DPKG_SHLIBDEPS dpkg-shlibdeps)
  if(NOT HERMES_DPKG_SHLIBDEPS)
    message(FATAL_ERROR "cpack -G DEB: dpkg-shlibdeps not found; it computes the package's "
                        "Depends (CPACK_DEBIAN_PACKAGE_SHLIBDEPS). Install Debian's dpkg-dev "
                        "(tools/deps installs it) and run cpack again.")
  endif()
  # The manual pages and changelog.Debian.gz need /usr/bin/python3 at build time.
  if(NOT CPACK_HERMES_DOCS)
    message(FATAL_ERROR "cpack -G DEB: this build has no manual pages nor changelog.Debian.gz "
                        "(/usr/bin/python3 was not found when CMake configured it). Install "
                        "Debian's python3, configure again and build.")
  endif()
  # The changelog's newest entry is this version: a release changes both.
  file(STRINGS "${CPACK_HERMES_CHANGELOG}" _hermes_first LIMIT_COUNT 1)
  if(NOT _hermes_first MATCHES "^hermes-sim \\(${CPACK_PACKAGE_VERSION}\\) ")
    message(FATAL_ERROR "cpack -G DEB: the newest entry of ${CPACK_HERMES_CHANGELOG} is not "
                        "version ${CPACK_PACKAGE_VERSION} (its first line: '${_hermes_first}'); "
                        "add an entry for this version.")
  endif()
endif()
