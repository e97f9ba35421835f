#include "sim/config/key_table.h"

#include "base/string_join.h"

namespace hermes::config {

std::string_view key_type_name(KeyType type) {
  switch (type) {
    case KeyType::kString:
      return "string";
    case KeyType::kChoice:
      return "choice";
    case KeyType::kInteger:
      return "integer";
    case KeyType::kNumber:
      return "number";
    case KeyType::kBoolean:
      return "boolean";
    case KeyType::kObject:
      return "object";
    case KeyType::kArray:
      return "list";
    case KeyType::kAny:
      break;
  }
  return "value";
}

const KeyDecl* ObjectDecl::find(std::string_view key) const {
  for (const auto& k : keys) {
    if (k.key == key) return &k;
  }
  return nullptr;
}

KeyHelp key_help(const ObjectDecl& object, const KeyDecl& key) {
  KeyHelp h;
  h.name = object.path.empty() ? std::string(key.key)
                               : std::string(object.path) + "." + std::string(key.key);
  h.type = std::string(key_type_name(key.type));
  h.fallback = std::string(key.default_text);
  std::string accepted;
  if (key.type == KeyType::kChoice) accepted = join_strings(key.choices);
  if (key.type == KeyType::kInteger || key.type == KeyType::kNumber) {
    accepted = key.range.describe(key.key);
    if (key.type == KeyType::kInteger && accepted == std::string(key.key) + " any number") {
      accepted = "any integer";
    } else if (accepted == std::string(key.key) + " any number") {
      accepted = "any number";
    }
  }
  if (key.type == KeyType::kBoolean) accepted = "true, false";
  if (!key.accepted.empty()) {
    accepted += (accepted.empty() ? "" : "; ") + std::string(key.accepted);
  }
  h.accepted = accepted;
  h.help = std::string(key.help);
  return h;
}

}  // namespace hermes::config
