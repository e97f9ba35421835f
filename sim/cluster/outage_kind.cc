#include "sim/cluster/outage_kind.h"

#include <cstddef>

namespace hermes::cluster {

namespace {

// Row i is the kind with value i, so that outage_kind() is an index.
constexpr bool rows_in_enum_order() {
  for (std::size_t i = 0; i < kOutageKinds.size(); ++i) {
    if (static_cast<std::size_t>(kOutageKinds[i].kind) != i) return false;
  }
  return true;
}
static_assert(rows_in_enum_order(), "kOutageKinds: one row per OutageKind, in the enum's order");
static_assert(kOutageKinds.size() == static_cast<std::size_t>(OutageKind::kEviction) + 1,
              "kOutageKinds: one row per OutageKind");

}  // namespace

const OutageKindRow& outage_kind(OutageKind kind) {
  return kOutageKinds[static_cast<std::size_t>(kind)];
}

std::optional<OutageKind> outage_kind_named(std::string_view name) {
  for (const OutageKindRow& row : kOutageKinds) {
    if (row.name == name) return row.kind;
  }
  return std::nullopt;
}

std::vector<std::string> outage_kind_names() {
  std::vector<std::string> names;
  for (const OutageKindRow& row : kOutageKinds) names.emplace_back(row.name);
  return names;
}

}  // namespace hermes::cluster
