// Reading whole input files (scenarios, profile catalogs, sweep manifests, dataset files) safely:
// only regular files, opened without blocking (a FIFO would otherwise wait for a writer for ever),
// and never more than a size limit, so that /dev/zero, a FIFO, a directory or a huge file is a
// clear error naming the file instead of a hang or std::bad_alloc.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace hermes {

// Limits of what the tool reads (scenarios/README.md, "Limits"). Each is far above what the
// project's own files need: the largest shipped scenario is 2 KB, the catalog 12 KB.
// Decimal units, as messages print them (byte_text, base/number_text.h).
inline constexpr std::uint64_t kMB = 1'000'000;
inline constexpr std::uint64_t kMaxScenarioBytes = 16 * kMB;
inline constexpr std::uint64_t kMaxProfileCatalogBytes = 16 * kMB;
inline constexpr std::uint64_t kMaxPriceListBytes = 16 * kMB;
// sweep.json holds every point (up to a million): our own file, so the limit is generous.
inline constexpr std::uint64_t kMaxManifestBytes = 512 * kMB;
// The result CSVs `compare`, `sweep` and the figures read (a sweep's summary.csv: a row per point
// and run), and availability traces.
inline constexpr std::uint64_t kMaxResultCsvBytes = 2000 * kMB;
inline constexpr std::uint64_t kMaxTraceBytes = 256 * kMB;

// "a character device", "a FIFO", "a directory", ... for `mode` (st_mode), "" for a regular file.
std::string special_file_kind(unsigned mode);

// Reads the whole regular file at `path`, at most `max_bytes` bytes. `what` names the kind of file
// in messages ("scenario file"). Throws InputError "<what> '<path>': <reason>" if it cannot be
// opened (with the system's reason: no such file, permission denied, too many levels of symbolic
// links), is not a regular file, or is larger than the limit.
std::string read_regular_file(const std::string& path, std::uint64_t max_bytes,
                              std::string_view what);
std::vector<std::uint8_t> read_regular_file_bytes(const std::string& path, std::uint64_t max_bytes,
                                                  std::string_view what);

}  // namespace hermes
