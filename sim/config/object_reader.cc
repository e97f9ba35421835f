#include "sim/config/object_reader.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <stdexcept>
#include <type_traits>

#include "base/suggest.h"
#include "sim/config/json_pointer.h"
#include "sim/config/key_table.h"

namespace hermes::config {

bool Range::contains(double v) const {
  if (lo && (lo_inclusive ? v < *lo : v <= *lo)) return false;
  if (hi && (hi_inclusive ? v > *hi : v >= *hi)) return false;
  return true;
}

std::string Range::describe(std::string_view key) const {
  const std::string k(key);
  if (lo && hi) {
    return k + " in " + (lo_inclusive ? "[" : "(") + format_number(*lo) + ", " +
           format_number(*hi) + (hi_inclusive ? "]" : ")");
  }
  if (lo) return k + (lo_inclusive ? " >= " : " > ") + format_number(*lo);
  if (hi) return k + (hi_inclusive ? " <= " : " < ") + format_number(*hi);
  return k + " any number";
}

std::string describe_value(const Json& value) {
  std::string text = value.dump();
  constexpr std::size_t kMax = 40;
  if (text.size() > kMax) text = text.substr(0, kMax) + "...";
  if (value.is_null()) return "null";
  return std::string(value.type_name()) + " " + text;
}

const Json& empty_object() {
  static const Json kEmpty = Json::object();
  return kEmpty;
}

ObjectReader::ObjectReader(const Json& value, std::string path, Diagnostics& diags, Json& out)
    : path_(std::move(path)), diags_(diags), out_(out) {
  if (value.is_object()) {
    object_ = &value;
    if (!out_.is_object()) out_ = Json::object();
  } else {
    diags_.error(path_, "wrong type: expected an object, got " + describe_value(value));
  }
}

ObjectReader::ObjectReader(const Json& value, std::string path, Diagnostics& diags, Json& out,
                           const ObjectDecl& decl)
    : ObjectReader(value, std::move(path), diags, out) {
  decl_ = &decl;
}

std::string ObjectReader::path_of(std::string_view key) const { return pointer_append(path_, key); }

namespace {
std::set<std::string>* declared_reads = nullptr;

bool same_range(const Range& a, const Range& b) {
  return a.lo == b.lo && a.hi == b.hi && (!a.lo || a.lo_inclusive == b.lo_inclusive) &&
         (!a.hi || a.hi_inclusive == b.hi_inclusive);
}
}  // namespace

void ObjectReader::record_declared_reads(std::set<std::string>* sink) { declared_reads = sink; }

void ObjectReader::check_declared(std::string_view key, int type,
                                  const std::optional<std::string>& fallback, const Range* range,
                                  const std::vector<std::string>* choices) const {
  if (decl_ == nullptr) return;
  const KeyDecl* k = decl_->find(key);
  const std::string where = std::string(decl_->path) + "." + std::string(key) + ": ";
  if (k == nullptr) {
    throw std::logic_error(where + "read at " + path_ + " but not declared in its key table");
  }
  if (type >= 0 && static_cast<int>(k->type) != type) {
    throw std::logic_error(where + "read as a " +
                           std::string(key_type_name(static_cast<KeyType>(type))) +
                           ", declared a " + std::string(key_type_name(k->type)));
  }
  if (range != nullptr && !same_range(*range, k->range)) {
    throw std::logic_error(where + "read with range " + range->describe(key) + ", declared " +
                           k->range.describe(key));
  }
  if (choices != nullptr && *choices != k->choices) {
    throw std::logic_error(where + "read with choices " + join_strings(*choices) + ", declared " +
                           join_strings(k->choices));
  }
  if (fallback && !k->computed_default && *fallback != k->default_text) {
    throw std::logic_error(where + "read with default " + *fallback + ", declared " +
                           std::string(k->default_text));
  }
}

const Json* ObjectReader::accept(std::string_view key) {
  if (decl_ != nullptr) {
    check_declared(key, -1, std::nullopt, nullptr, nullptr);
    if (declared_reads != nullptr) {
      declared_reads->insert(std::string(decl_->path) + "." + std::string(key));
    }
  }
  if (std::find(accepted_.begin(), accepted_.end(), key) == accepted_.end()) {
    accepted_.emplace_back(key);
  }
  if (object_ == nullptr) return nullptr;
  const auto it = object_->find(key);
  return it == object_->end() ? nullptr : &*it;
}

bool ObjectReader::has(std::string_view key) const {
  return object_ != nullptr && object_->contains(key);
}

void ObjectReader::error(std::string_view key, std::string message) {
  diags_.error(path_of(key), std::move(message));
}

void ObjectReader::missing(std::string_view key) {
  error(key, "missing required key '" + std::string(key) + "'");
}

void ObjectReader::wrong_type(std::string_view key, std::string_view expected, const Json& got) {
  error(key, "wrong type: expected " + std::string(expected) + ", got " + describe_value(got));
}

namespace {

// A default as it appears in the resolved document: 100.0 is written 100, like a person would.
template <typename T>
Json default_json(const T& value) {
  if constexpr (std::is_same_v<T, double>) {
    if (std::isfinite(value) && value == std::trunc(value) && std::fabs(value) < 1e15) {
      return Json(static_cast<std::int64_t>(value));
    }
  }
  return Json(value);
}

// Shared shape of every accessor: absent -> default or "missing"; present -> convert + check.
template <typename T, typename Convert>
std::optional<T> read_field(ObjectReader& r, std::string_view key, const std::optional<T>& fallback,
                            Convert convert) {
  const Json* v = r.accept(key);
  if (!r.is_object()) return std::nullopt;
  if (v == nullptr) {
    if (!fallback) {
      r.missing(key);
      return std::nullopt;
    }
    r.out()[std::string(key)] = default_json(*fallback);
    return fallback;
  }
  std::optional<T> value = convert(*v);
  if (value) r.out()[std::string(key)] = *v;  // as written: 100 stays 100, not 100.0
  return value;
}

}  // namespace

std::optional<std::string> ObjectReader::string(std::string_view key,
                                                std::optional<std::string> fallback) {
  check_declared(key, static_cast<int>(KeyType::kString), fallback, nullptr, nullptr);
  return read_field<std::string>(*this, key, fallback,
                                 [&](const Json& v) -> std::optional<std::string> {
                                   if (!v.is_string()) {
                                     wrong_type(key, "a string", v);
                                     return std::nullopt;
                                   }
                                   return v.get<std::string>();
                                 });
}

std::optional<std::string> ObjectReader::choice(std::string_view key,
                                                const std::vector<std::string>& accepted,
                                                std::optional<std::string> fallback) {
  check_declared(key, static_cast<int>(KeyType::kChoice), fallback, nullptr, &accepted);
  return read_field<std::string>(
      *this, key, fallback, [&](const Json& v) -> std::optional<std::string> {
        if (!v.is_string()) {
          wrong_type(key, "a string (one of: " + join_strings(accepted) + ")", v);
          return std::nullopt;
        }
        const auto s = v.get<std::string>();
        if (std::find(accepted.begin(), accepted.end(), s) == accepted.end()) {
          error(key, "unknown " + std::string(key) + " '" + s + "' (accepted: " +
                         join_strings(accepted) + ")" + did_you_mean(s, accepted));
          return std::nullopt;
        }
        return s;
      });
}

std::optional<std::int64_t> ObjectReader::integer(std::string_view key,
                                                  std::optional<std::int64_t> fallback,
                                                  Range range) {
  check_declared(key, static_cast<int>(KeyType::kInteger),
                 fallback ? std::optional<std::string>(std::to_string(*fallback)) : std::nullopt,
                 &range, nullptr);
  return read_field<std::int64_t>(
      *this, key, fallback, [&](const Json& v) -> std::optional<std::int64_t> {
        if (!v.is_number_integer()) {
          wrong_type(key, "an integer (" + range.describe(key) + ")", v);
          return std::nullopt;
        }
        if (v.is_number_unsigned() &&
            v.get<std::uint64_t>() >
                static_cast<std::uint64_t>(std::numeric_limits<std::int64_t>::max())) {
          error(key, "out of range (accepted: " + range.describe(key) + "; got " + v.dump() + ")");
          return std::nullopt;
        }
        const auto i = v.get<std::int64_t>();
        if (!range.contains(static_cast<double>(i))) {
          error(key, "out of range (accepted: " + range.describe(key) + "; got " +
                         std::to_string(i) + ")");
          return std::nullopt;
        }
        return i;
      });
}

std::optional<int> ObjectReader::int32(std::string_view key, std::optional<int> fallback,
                                       Range range) {
  const auto v =
      integer(key, fallback ? std::optional<std::int64_t>(*fallback) : std::nullopt, range);
  if (!v) return std::nullopt;
  if (*v > std::numeric_limits<int>::max() || *v < std::numeric_limits<int>::min()) {
    error(key, "out of range (accepted: " + range.describe(key) + ", at most " +
                   std::to_string(std::numeric_limits<int>::max()) + "; got " + std::to_string(*v) +
                   ")");
    return std::nullopt;
  }
  return static_cast<int>(*v);
}

std::optional<double> ObjectReader::number(std::string_view key, std::optional<double> fallback,
                                           Range range) {
  check_declared(key, static_cast<int>(KeyType::kNumber),
                 fallback ? std::optional<std::string>(format_number(*fallback)) : std::nullopt,
                 &range, nullptr);
  return read_field<double>(*this, key, fallback, [&](const Json& v) -> std::optional<double> {
    if (!v.is_number()) {
      wrong_type(key, "a number (" + range.describe(key) + ")", v);
      return std::nullopt;
    }
    const auto d = v.get<double>();
    if (!std::isfinite(d) || !range.contains(d)) {
      error(key, "out of range (accepted: " + range.describe(key) + "; got " + v.dump() + ")");
      return std::nullopt;
    }
    return d;
  });
}

std::optional<bool> ObjectReader::boolean(std::string_view key, std::optional<bool> fallback) {
  check_declared(key, static_cast<int>(KeyType::kBoolean),
                 fallback ? std::optional<std::string>(*fallback ? "true" : "false") : std::nullopt,
                 nullptr, nullptr);
  return read_field<bool>(*this, key, fallback, [&](const Json& v) -> std::optional<bool> {
    if (!v.is_boolean()) {
      wrong_type(key, "true or false", v);
      return std::nullopt;
    }
    return v.get<bool>();
  });
}

void ObjectReader::finish() {
  if (object_ == nullptr) return;
  for (const auto& [key, value] : object_->items()) {
    if (std::find(accepted_.begin(), accepted_.end(), key) == accepted_.end()) {
      error(key, "unknown key '" + key + "' (accepted: " + join_strings(accepted_) + ")" +
                     did_you_mean(key, accepted_));
    }
  }
}

std::optional<std::string> non_empty_string(ObjectReader& r, std::string_view key) {
  auto s = r.string(key, std::nullopt);
  if (s && s->empty()) {
    r.error(key, "empty " + std::string(key) + " (accepted: a non-empty string)");
    return std::nullopt;
  }
  return s;
}

void read_string_list(const Json& value, const std::string& path, std::vector<std::string>& out,
                      Diagnostics& diags) {
  if (!value.is_array()) {
    diags.error(path, "wrong type: expected an array of strings, got " + describe_value(value));
    return;
  }
  for (std::size_t i = 0; i < value.size(); ++i) {
    if (value[i].is_string()) {
      out.push_back(value[i].get<std::string>());
    } else {
      diags.error(pointer_append(path, i),
                  "wrong type: expected a string, got " + describe_value(value[i]));
    }
  }
}

}  // namespace hermes::config
