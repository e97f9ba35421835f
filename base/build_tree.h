// Where a binary runs from, and the source tree of a build-tree binary, found at run time rather
// than compiled in: configuring a build directory writes the file hermes-source-tree.txt into it
// (CMakeLists.txt), beside the executables, naming the source tree. A binary installed by
// `cmake --install` or a Debian package has no such file beside it, so no path of the machine that
// built it is in any binary, and an installed binary never reads the build machine's tree.
#pragma once

#include <string>

namespace hermes {

// The marker's file name, in the executable's directory.
inline constexpr const char* kSourceTreeMarker = "hermes-source-tree.txt";

// The directory of this process's executable (/proc/self/exe, symlinks resolved), "" if unknown;
// or the directory set_program_dir() gave.
std::string executable_dir();

// For a program embedding hermes-sim (the Python module: its process's executable is python3):
// the directory a hermes-sim executable of the same build or install would be in, read by
// executable_dir() from now on. Call before anything reads the home or the data directories.
void set_program_dir(std::string dir);

// The source tree named by `exe_dir`/hermes-source-tree.txt: its first line, if that is an
// absolute path to a directory, lexically normal, without a trailing '/'. "" if `exe_dir` is
// empty, the file is absent or unreadable, or it names no directory.
std::string source_tree_beside(const std::string& exe_dir);

// source_tree_beside(executable_dir()), read once per process.
const std::string& build_source_tree();

}  // namespace hermes
