// The descriptors of protocols.def gathered, and what derives from them (protocol_descriptor.h).
#include "sim/scenario/protocol_descriptor.h"

#include <stdexcept>

#include "base/string_join.h"

namespace hermes::scenario {

namespace {

// Every protocol's descriptor, in protocols.def's order, which is the enum's.
const std::vector<ProtocolDescriptor>& all() {
  static const std::vector<ProtocolDescriptor> descriptors = [] {
    std::vector<ProtocolDescriptor> v{
#define HERMES_PROTOCOL(id, name) describe_##name(),
#include "sim/scenario/protocols.def"
#undef HERMES_PROTOCOL
    };
    for (std::size_t i = 0; i < v.size(); ++i) {
      if (static_cast<std::size_t>(v[i].id) != i) {
        throw std::logic_error("describe_" + std::string(v[i].name) +
                               "(): its id is not its line of protocols.def");
      }
    }
    return v;
  }();
  return descriptors;
}

}  // namespace

std::span<const ProtocolDescriptor> protocol_descriptors() { return all(); }

const ProtocolDescriptor& descriptor_of(Protocol protocol) {
  const auto i = static_cast<std::size_t>(protocol);
  if (i >= all().size()) throw std::logic_error("descriptor_of: no such protocol");
  return all()[i];
}

const ProtocolDescriptor* find_protocol(std::string_view name) {
  for (const ProtocolDescriptor& d : all()) {
    if (d.name == name) return &d;
  }
  return nullptr;
}

const ProtocolDescriptor& speedup_reference() {
  for (const ProtocolDescriptor& d : all()) {
    if (d.traits.speedup_reference) return d;
  }
  throw std::logic_error("speedup_reference: no protocol has the trait");
}

unsigned protocols_with(ProtocolTrait trait) {
  unsigned set = 0;
  for (const ProtocolDescriptor& d : all()) {
    if (d.traits.*trait) set |= 1u << static_cast<unsigned>(d.id);
  }
  return set;
}

std::string protocol_names_with(ProtocolTrait trait) {
  std::vector<std::string> names;
  for (const ProtocolDescriptor& d : all()) {
    if (d.traits.*trait) names.emplace_back(d.name);
  }
  return join_strings(names);
}

std::string_view protocol_name(Protocol protocol) {
  const auto i = static_cast<std::size_t>(protocol);
  return i < all().size() ? all()[i].name : std::string_view("unknown");
}

std::optional<Protocol> parse_protocol(std::string_view name) {
  const ProtocolDescriptor* d = find_protocol(name);
  return d ? std::optional<Protocol>(d->id) : std::nullopt;
}

const std::vector<std::string>& protocol_names() {
  static const std::vector<std::string> names = [] {
    std::vector<std::string> v;
    for (const ProtocolDescriptor& d : all()) v.emplace_back(d.name);
    return v;
  }();
  return names;
}

std::string protocols_table() {
  auto yes = [](bool b) { return b ? "yes" : ""; };
  std::string out =
      "| protocol | name | defined by | trains | takes outages | paper baseline | evaluates "
      "every `evaluate_every` updates | applies updates on arrival | speedups measured against "
      "it |\n"
      "|---|---|---|---|---|---|---|---|---|\n";
  for (const ProtocolDescriptor& d : all()) {
    out += "| " + std::string(d.label) + " | `" + std::string(d.name) + "` | " +
           std::string(d.source) + " | " + yes(d.traits.trains) + " | " +
           yes(d.traits.takes_outages) + " | " + yes(d.traits.paper_baseline) + " | " +
           yes(d.traits.evaluates_by_update_count) + " | " + yes(d.traits.applies_on_arrival) +
           " | " + yes(d.traits.speedup_reference) + " |\n";
  }
  return out;
}

}  // namespace hermes::scenario
