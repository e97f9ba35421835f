// The declared keys of a configuration object: name, type, default, accepted values and one line
// of help. A section reader hands its table to its ObjectReader, which then refuses (as a
// programming error, std::logic_error) to read a key the table does not declare, or to read one
// with another type, range, choices or default than declared; `hermes-sim keys` prints the same
// tables. So the keys the loader reads and the keys `keys` lists cannot drift apart.
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "sim/config/object_reader.h"

namespace hermes::config {

enum class KeyType { kString, kChoice, kInteger, kNumber, kBoolean, kObject, kArray, kAny };

// "string", "choice", "integer", "number", "boolean", "object", "list", "value".
std::string_view key_type_name(KeyType type);

struct KeyDecl {
  std::string_view key;
  KeyType type = KeyType::kAny;
  // The default as printed: "required", "none" (optional, no default), a value ("star", "0.1"),
  // or a text for a default that depends on other keys (then `computed_default`).
  std::string default_text = "none";
  Range range{};                       // kInteger, kNumber
  std::vector<std::string> choices{};  // kChoice
  std::string accepted{};              // what else to say is accepted (strings, objects, lists)
  std::string help{};
  // The default depends on other keys (the accounting, the dataset): the reader's fallback is not
  // compared with default_text.
  bool computed_default = false;
};

struct ObjectDecl {
  // Where the object is, in --set notation: "training.stop", "cluster.workers[]" (an element of a
  // list), "sweep.grid.<key>" (a value of a map).
  std::string path;
  std::vector<KeyDecl> keys;

  // The declaration of `key`, nullptr if none.
  const KeyDecl* find(std::string_view key) const;
};

// What `keys` prints for one key: "<path>.<key>" and its declaration's texts.
struct KeyHelp {
  std::string name;      // "training.stop.patience"
  std::string type;      // "integer"
  std::string fallback;  // "25"
  std::string accepted;  // "patience >= 1"
  std::string help;
};
KeyHelp key_help(const ObjectDecl& object, const KeyDecl& key);

}  // namespace hermes::config
