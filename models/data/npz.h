// NumPy .npz archives (np.savez, np.savez_compressed) read with libzip: one part of a dataset
// from the arrays x_<part> / y_<part> (else x / y), as dataset_format.h describes.
#pragma once

#include <cstdint>
#include <string>

#include "models/data/dataset.h"
#include "models/data/dataset_format.h"

namespace hermes::data {

// Throws InputError naming the file (and the array) and the reason.
Dataset read_npz_part(const std::string& path, const std::string& part, std::string name,
                      SampleShape shape, int classes, std::uint64_t max_file_bytes);

// How many samples part `part` holds: its labels array's first dimension (the labels are read, the
// images are not). Throws InputError as read_npz_part does for the archive and the labels.
std::uint64_t count_npz_samples(const std::string& path, const std::string& part,
                                std::uint64_t max_file_bytes);

}  // namespace hermes::data
