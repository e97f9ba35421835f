// Reading CSV files: the Fast C++ CSV Parser (Debian libfccp-dev), included through this header so
// that its one GCC warning (a strncpy of a file name it truncates on purpose) stays out of our
// builds. Include this, never <libfccp/csv.h> directly.
#pragma once

#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wstringop-truncation"
#include <libfccp/csv.h>
#pragma GCC diagnostic pop
