// One row per protocol (protocol_descriptor.h says who reads them). A new protocol is a row here,
// its enum value, its parameters' rows in run_params.cc and its runner in
// sim/protocols/registry.cc.
#include "sim/scenario/protocol_descriptor.h"

#include <array>
#include <stdexcept>

#include "base/string_join.h"

namespace hermes::scenario {

namespace {

constexpr ProtocolTraits kAsynchronousBaseline{.paper_baseline = true, .applies_on_arrival = true};

constexpr std::array<ProtocolDescriptor, 6> kDescriptors = {{
    {.id = Protocol::kBsp,
     .name = "bsp",
     .label = "BSP",
     .source = "bulk synchronous parallel (Valiant, CACM 1990), as the Hermes paper runs it",
     .traits = {.paper_baseline = true, .speedup_reference = true}},
    {.id = Protocol::kAsp,
     .name = "asp",
     .label = "ASP",
     .source = "Downpour SGD (Dean et al., NIPS 2012); the parameter server of Li et al. (OSDI "
               "2014)",
     .traits = kAsynchronousBaseline},
    {.id = Protocol::kSsp,
     .name = "ssp",
     .label = "SSP",
     .source = "stale synchronous parallel (Ho et al., NIPS 2013)",
     .traits = kAsynchronousBaseline},
    {.id = Protocol::kEbsp,
     .name = "ebsp",
     .label = "E-BSP",
     .source = "ElasticBSP with ZipLine (Zhao et al., ICDM 2019)",
     .traits = kAsynchronousBaseline},
    {.id = Protocol::kHermes,
     .name = "hermes",
     .label = "Hermes",
     .source = "Hermes (Basani et al., HiPC 2024; docs/paper.md)",
     .traits = {}},
    {.id = Protocol::kDemo,
     .name = "demo",
     .label = "demo",
     .source = "hermes-sim's own: chunks and pushes timed, no training math",
     .traits = {.trains = false, .takes_outages = false}},
}};

constexpr bool in_enum_order() {
  for (std::size_t i = 0; i < kDescriptors.size(); ++i) {
    if (static_cast<std::size_t>(kDescriptors[i].id) != i) return false;
  }
  return true;
}
static_assert(in_enum_order(), "kDescriptors: one row per Protocol, in enum order");
static_assert(kDescriptors.back().id == Protocol::kDemo,
              "kDescriptors: the last Protocol has no row");

}  // namespace

std::span<const ProtocolDescriptor> protocol_descriptors() { return kDescriptors; }

const ProtocolDescriptor& descriptor_of(Protocol protocol) {
  const auto i = static_cast<std::size_t>(protocol);
  if (i >= kDescriptors.size()) throw std::logic_error("descriptor_of: no such protocol");
  return kDescriptors[i];
}

const ProtocolDescriptor* find_protocol(std::string_view name) {
  for (const ProtocolDescriptor& d : kDescriptors) {
    if (d.name == name) return &d;
  }
  return nullptr;
}

const ProtocolDescriptor& speedup_reference() {
  for (const ProtocolDescriptor& d : kDescriptors) {
    if (d.traits.speedup_reference) return d;
  }
  throw std::logic_error("speedup_reference: no protocol has the trait");
}

unsigned protocols_with(ProtocolTrait trait) {
  unsigned set = 0;
  for (const ProtocolDescriptor& d : kDescriptors) {
    if (d.traits.*trait) set |= 1u << static_cast<unsigned>(d.id);
  }
  return set;
}

std::string protocol_names_with(ProtocolTrait trait) {
  std::vector<std::string> names;
  for (const ProtocolDescriptor& d : kDescriptors) {
    if (d.traits.*trait) names.emplace_back(d.name);
  }
  return join_strings(names);
}

std::string_view protocol_name(Protocol protocol) {
  const auto i = static_cast<std::size_t>(protocol);
  return i < kDescriptors.size() ? kDescriptors[i].name : std::string_view("unknown");
}

std::optional<Protocol> parse_protocol(std::string_view name) {
  const ProtocolDescriptor* d = find_protocol(name);
  return d ? std::optional<Protocol>(d->id) : std::nullopt;
}

const std::vector<std::string>& protocol_names() {
  static const std::vector<std::string> names = [] {
    std::vector<std::string> v;
    for (const ProtocolDescriptor& d : kDescriptors) v.emplace_back(d.name);
    return v;
  }();
  return names;
}

std::string protocols_table() {
  auto yes = [](bool b) { return b ? "yes" : ""; };
  std::string out =
      "| protocol | name | defined by | trains | takes outages | paper baseline | applies "
      "updates on arrival | speedups measured against it |\n"
      "|---|---|---|---|---|---|---|---|\n";
  for (const ProtocolDescriptor& d : kDescriptors) {
    out += "| " + std::string(d.label) + " | `" + std::string(d.name) + "` | " +
           std::string(d.source) + " | " + yes(d.traits.trains) + " | " +
           yes(d.traits.takes_outages) + " | " + yes(d.traits.paper_baseline) + " | " +
           yes(d.traits.applies_on_arrival) + " | " + yes(d.traits.speedup_reference) + " |\n";
  }
  return out;
}

}  // namespace hermes::scenario
