// The .npz reader: NumPy's archives opened with libzip, each array's header parsed by npy.cc.
#include "models/data/npz.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>
#include <zip.h>

#include <bit>
#include <cerrno>
#include <cmath>
#include <cstring>
#include <memory>
#include <string>
#include <utility>

#include "base/diagnostics.h"
#include "base/file_read.h"
#include "base/number_text.h"
#include "models/data/idx.h"
#include "models/data/npy.h"

namespace hermes::data {
namespace {

// ---- The archive --------------------------------------------------------------------------------

struct ZipDiscard {  // read only: nothing to write back, so never zip_close
  void operator()(zip_t* za) const { zip_discard(za); }
};
struct ZipFileClose {
  void operator()(zip_file_t* f) const { zip_fclose(f); }
};
using Archive = std::unique_ptr<zip_t, ZipDiscard>;
using ArchiveFile = std::unique_ptr<zip_file_t, ZipFileClose>;

std::string zip_error_text(int code) {
  zip_error_t error;
  zip_error_init_with_code(&error, code);
  std::string text = zip_error_strerror(&error);
  zip_error_fini(&error);
  return text;
}

std::string bytes_text(std::uint64_t n) {
  return byte_text(static_cast<double>(n)) + " (" + std::to_string(n) + " bytes)";
}

// `path` as a zip archive: a regular file (opened without blocking, so that a FIFO cannot hang
// the run) of at most `max_bytes`.
Archive open_archive(const std::string& path, std::uint64_t max_bytes) {
  int fd = ::open(path.c_str(), O_RDONLY | O_NONBLOCK | O_CLOEXEC | O_NOCTTY);
  if (fd < 0) {
    if (errno == ENOENT) throw InputError(path + ": file not found");
    throw InputError(path + ": cannot open: " + std::strerror(errno));
  }
  struct Guard {  // closes fd on every path out but the one where libzip takes it
    int& fd;
    ~Guard() {
      if (fd >= 0) ::close(fd);
    }
  } guard{fd};
  struct stat st {};
  if (::fstat(fd, &st) != 0) throw InputError(path + ": cannot read: " + std::strerror(errno));
  if (const std::string kind = special_file_kind(st.st_mode); !kind.empty()) {
    throw InputError(path + ": is " + kind + ", not a regular file; expected an .npz archive");
  }
  const auto size = static_cast<std::uint64_t>(st.st_size);
  if (size > max_bytes) {
    throw InputError(path + ": " + bytes_text(size) + ", larger than the limit of " +
                     bytes_text(max_bytes) + " for a dataset file");
  }
  const std::string not_zip =
      path +
      ": not a zip archive; an .npz file is one, as np.savez and np.savez_compressed "
      "write it";
  std::uint8_t head[2] = {};
  if (::pread(fd, head, 2, 0) == 2 && head[0] == 0x1f && head[1] == 0x8b) {
    throw InputError(not_zip + " (this is gzip data: an .npz is read as it is, never gunzipped)");
  }
  // A zip archive holds at least its 22-byte end record; libzip would take an empty file for an
  // empty archive.
  if (size < 22) throw InputError(not_zip + " (" + std::to_string(size) + " bytes)");
  int code = 0;
  zip_t* za = zip_fdopen(fd, 0, &code);
  if (za == nullptr) {
    if (code == ZIP_ER_NOZIP) throw InputError(not_zip);
    throw InputError(path + ": corrupt zip archive: " + zip_error_text(code));
  }
  fd = -1;  // libzip owns it now
  return Archive(za);
}

// The archive's entry names, for messages: "a.npy, b.npy" (at most 10, then "...").
std::string entry_names(zip_t* za) {
  const zip_int64_t n = zip_get_num_entries(za, 0);
  if (n <= 0) return "no entries";
  std::string out;
  for (zip_int64_t i = 0; i < n && i < 10; ++i) {
    const char* name = zip_get_name(za, static_cast<zip_uint64_t>(i), 0);
    out += (i > 0 ? ", " : "") + std::string(name != nullptr ? name : "?");
  }
  return n > 10 ? out + ", ... (" + std::to_string(n) + " entries)" : out;
}

struct Entry {
  zip_uint64_t index = 0;
  std::string name;  // "x_train.npy"
};

// The array `stem` of `part`: entry "<stem>_<part>.npy", else "<stem>.npy".
Entry find_array(zip_t* za, const std::string& path, const std::string& stem,
                 const std::string& part) {
  for (const std::string& name : {stem + "_" + part + ".npy", stem + ".npy"}) {
    const zip_int64_t i = zip_name_locate(za, name.c_str(), 0);
    if (i >= 0) return {static_cast<zip_uint64_t>(i), name};
  }
  throw InputError(
      path + ": no array " + stem + "_" + part + " or " + stem + " in the archive (it holds " +
      entry_names(za) + "); expected the images as x_" + part + " (else x) and the labels as y_" +
      part + " (else y), as np.savez(file, x_" + part + "=..., y_" + part + "=...) writes them");
}

// The whole uncompressed entry; its size (from the central directory) is checked against
// `max_bytes` before anything is allocated or inflated, so a zip bomb costs nothing.
std::vector<std::uint8_t> read_entry(zip_t* za, const Entry& entry, const std::string& where,
                                     std::uint64_t max_bytes) {
  zip_stat_t st;
  zip_stat_init(&st);
  if (zip_stat_index(za, entry.index, 0, &st) != 0 || (st.valid & ZIP_STAT_SIZE) == 0) {
    throw InputError(where + ": corrupt zip entry: " + zip_error_strerror(zip_get_error(za)));
  }
  if (st.size > max_bytes) {
    throw InputError(where + ": decompresses to " + bytes_text(st.size) +
                     ", larger than the limit of " + bytes_text(max_bytes) +
                     " for a dataset file (a zip bomb?)");
  }
  if ((st.valid & ZIP_STAT_ENCRYPTION_METHOD) != 0 && st.encryption_method != ZIP_EM_NONE) {
    throw InputError(where + ": encrypted; accepted: unencrypted entries, as np.savez writes");
  }
  const ArchiveFile file(zip_fopen_index(za, entry.index, 0));
  if (!file) throw InputError(where + ": cannot read: " + zip_error_strerror(zip_get_error(za)));
  std::vector<std::uint8_t> out(static_cast<std::size_t>(st.size));
  std::size_t filled = 0;
  // Read one byte beyond the declared size: reaching the end makes libzip check the CRC-32, and a
  // byte more shows an entry longer than its directory says.
  std::uint8_t extra = 0;
  for (;;) {
    std::uint8_t* to = filled < out.size() ? out.data() + filled : &extra;
    const zip_uint64_t want = filled < out.size() ? out.size() - filled : 1;
    const zip_int64_t n = zip_fread(file.get(), to, want);
    if (n < 0) throw InputError(where + ": corrupt zip entry: " + zip_file_strerror(file.get()));
    if (n == 0) break;
    if (filled == out.size()) {
      throw InputError(where + ": corrupt zip entry: longer than the " + std::to_string(st.size) +
                       " bytes its directory entry says");
    }
    filled += static_cast<std::size_t>(n);
  }
  if (filled != out.size()) {
    throw InputError(where + ": corrupt zip entry: " + std::to_string(filled) +
                     " bytes, its directory entry says " + std::to_string(st.size));
  }
  return out;
}

enum class Layout { kChw, kHwc };

// How the image array's shape gives the declared samples (dataset_format.h: channels last wins
// when both fit).
Layout image_layout(const Npy& x, SampleShape s, const std::string& where) {
  const auto C = static_cast<std::uint64_t>(s.channels);
  const auto H = static_cast<std::uint64_t>(s.height);
  const auto W = static_cast<std::uint64_t>(s.width);
  const std::vector<std::uint64_t>& sh = x.shape;
  if (!sh.empty() && sh[0] == 0) {
    throw InputError(where + ": holds 0 images " + shape_text(sh) + "; expected at least 1");
  }
  if (sh.size() == 3 && C == 1 && sh[1] == H && sh[2] == W) return Layout::kChw;
  if (sh.size() == 4 && sh[1] == H && sh[2] == W && sh[3] == C) return Layout::kHwc;
  if (sh.size() == 4 && sh[1] == C && sh[2] == H && sh[3] == W) return Layout::kChw;
  const auto hwc = "(N, " + std::to_string(H) + ", " + std::to_string(W) + ", " +
                   std::to_string(C) + ") (channels last)";
  const auto chw = "(N, " + std::to_string(C) + ", " + std::to_string(H) + ", " +
                   std::to_string(W) + ") (channels first)";
  const auto flat = "(N, " + std::to_string(H) + ", " + std::to_string(W) + "), ";
  throw InputError(where + ": shape " + shape_text(sh) + " does not hold the dataset's " + s.str() +
                   " samples (channels x height x width); accepted: " + (C == 1 ? flat : "") + hwc +
                   " or " + chw);
}

// Element i of a float array as a pixel; float64 rounds to float (IEEE, round to nearest).
double float_element(const Npy& a, const std::uint8_t* data, std::size_t i) {
  if (a.itemsize == 4) {
    return std::bit_cast<float>(static_cast<std::uint32_t>(read_le(data + 4 * i, 4)));
  }
  return std::bit_cast<double>(read_le(data + 8 * i, 8));
}

// The images as CHW floats, sample after sample.
std::vector<float> image_pixels(const Npy& x, const std::vector<std::uint8_t>& bytes, SampleShape s,
                                Layout layout, const std::string& where) {
  const std::uint8_t* data = bytes.data() + x.data_offset;
  const std::size_t dim = static_cast<std::size_t>(s.channels) * s.height * s.width;
  // A NaN or an infinity (or a float64 beyond float) would poison training: refused first.
  if (x.kind == 'f') {
    for (std::size_t i = 0; i < x.count; ++i) {
      const double v = float_element(x, data, i);
      if (std::isfinite(static_cast<float>(v))) continue;
      throw InputError(where + ": value " + shortest(v) + " of image " + std::to_string(i / dim) +
                       " (element " + std::to_string(i % dim) + " in the array's order) " +
                       (std::isfinite(v) ? "is beyond float's range (+-3.4e38)" : "is not finite") +
                       "; accepted: finite values that fit a float");
    }
  }
  const float* unit = byte_to_unit_table();
  const auto pixel = [&](std::size_t i) {
    return x.kind == 'u' ? unit[data[i]] : static_cast<float>(float_element(x, data, i));
  };
  std::vector<float> out(x.count);
  if (layout == Layout::kChw) {
    for (std::size_t i = 0; i < x.count; ++i) out[i] = pixel(i);
    return out;
  }
  // Channels last: element (n, y, x, c) goes to n * dim + c * H * W + y * W + x.
  const std::size_t C = s.channels, plane = static_cast<std::size_t>(s.height) * s.width;
  for (std::size_t i = 0; i < x.count; ++i) {
    const std::size_t n = i / dim, at = i % dim;
    out[n * dim + (at % C) * plane + at / C] = pixel(i);
  }
  return out;
}

// The labels, each checked to be in [0, classes).
std::vector<std::uint8_t> label_values(const Npy& y, const std::vector<std::uint8_t>& bytes,
                                       int classes, const std::string& where) {
  const std::uint8_t* data = bytes.data() + y.data_offset;
  std::vector<std::uint8_t> out(y.count);
  for (std::size_t i = 0; i < y.count; ++i) {
    const std::uint64_t raw = read_le(data + i * y.itemsize, y.itemsize);
    const unsigned bits = static_cast<unsigned>(8 * y.itemsize);
    const bool negative = y.kind == 'i' && (raw >> (bits - 1) & 1) != 0;
    if (negative || raw >= static_cast<std::uint64_t>(classes)) {
      // Sign-extend for the message: the value as NumPy prints it.
      const std::string value =
          negative ? std::to_string(static_cast<std::int64_t>(
                         bits == 64 ? raw : raw | ~((std::uint64_t{1} << bits) - 1)))
                   : std::to_string(raw);
      throw InputError(where + ": label " + value + " of sample " + std::to_string(i) +
                       " is out of range, expected 0.." + std::to_string(classes - 1));
    }
    out[i] = static_cast<std::uint8_t>(raw);
  }
  return out;
}

// The labels array's header: an integer dtype, shape (N,) or (N, 1).
Npy parse_labels(const std::vector<std::uint8_t>& bytes, const std::string& where) {
  Npy y = parse_npy(
      bytes, where,
      [](char k, std::size_t n) {
        return (k == 'i' || k == 'u') && (n == 1 || n == 2 || n == 4 || n == 8);
      },
      "an integer dtype (int8..int64 or uint8..uint64)");
  if (!(y.shape.size() == 1 || (y.shape.size() == 2 && y.shape[1] == 1))) {
    throw InputError(where + ": shape " + shape_text(y.shape) +
                     " is not accepted for labels; accepted: (N,) or (N, 1)");
  }
  return y;
}

}  // namespace

std::uint64_t count_npz_samples(const std::string& path, const std::string& part,
                                std::uint64_t max_file_bytes) {
  const Archive za = open_archive(path, max_file_bytes);
  const Entry ye = find_array(za.get(), path, "y", part);
  const std::string yw = path + ": " + ye.name;
  return parse_labels(read_entry(za.get(), ye, yw, max_file_bytes), yw).shape[0];
}

Dataset read_npz_part(const std::string& path, const std::string& part, std::string name,
                      SampleShape shape, int classes, std::uint64_t max_file_bytes) {
  const Archive za = open_archive(path, max_file_bytes);
  const Entry xe = find_array(za.get(), path, "x", part);
  const Entry ye = find_array(za.get(), path, "y", part);
  const std::string xw = path + ": " + xe.name;
  const std::string yw = path + ": " + ye.name;

  Dataset ds = empty_dataset(std::move(name), shape, classes);
  std::size_t images = 0;
  {  // the image bytes are dropped as soon as they are floats
    const std::vector<std::uint8_t> bytes = read_entry(za.get(), xe, xw, max_file_bytes);
    const Npy x = parse_npy(
        bytes, xw,
        [](char k, std::size_t n) {
          return (k == 'u' && n == 1) || (k == 'f' && (n == 4 || n == 8));
        },
        "uint8 ('|u1'), float32 ('<f4') or float64 ('<f8')");
    const Layout layout = image_layout(x, shape, xw);
    images = static_cast<std::size_t>(x.shape[0]);
    ds.pixels = image_pixels(x, bytes, shape, layout, xw);
  }
  const std::vector<std::uint8_t> bytes = read_entry(za.get(), ye, yw, max_file_bytes);
  const Npy y = parse_labels(bytes, yw);
  if (y.shape[0] != images) {
    throw InputError(
        path + ": label count does not match the images: " + std::to_string(y.shape[0]) +
        " labels in " + ye.name + ", expected " + std::to_string(images) + " as in " + xe.name);
  }
  ds.labels = label_values(y, bytes, classes, yw);
  return ds;
}

}  // namespace hermes::data
