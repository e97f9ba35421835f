// "network": a star around one switch, or custom switches and links.
#include <string>

#include "sim/config/json_pointer.h"
#include "sim/config/key_table.h"
#include "sim/config/object_reader.h"
#include "sim/engine/sim_time.h"
#include "sim/scenario/sections.h"

namespace hermes::scenario {

using config::KeyType;

namespace {

// Latencies above this are surely a unit mistake (it is 1000 s).
constexpr double kMaxLatencyUs = 1e9;

}  // namespace

const ObjectDecl& network_decl() {
  static const ObjectDecl decl{
      "network",
      {{.key = "topology",
        .type = KeyType::kChoice,
        .default_text = "star",
        .choices = {"star", "custom"},
        .help = "star: every host on one switch; custom: the switches and links given"},
       {.key = "latency_us",
        .type = KeyType::kNumber,
        .default_text = "100",
        .range = Range::at_least(0).up_to(kMaxLatencyUs),
        .help = "star only: one-way latency of each host-switch link, microseconds"},
       {.key = "switches",
        .type = KeyType::kArray,
        .default_text = "[]",
        .accepted = "switch names, distinct from each other and from the hosts",
        .help = "custom only: the switches"},
       {.key = "links",
        .type = KeyType::kArray,
        .default_text = "required",
        .accepted = "a list of links (network.links[].*)",
        .help = "custom only: the links between hosts and switches"}}};
  return decl;
}

const ObjectDecl& link_decl() {
  static const ObjectDecl decl{"network.links[]",
                               {{.key = "a",
                                 .type = KeyType::kString,
                                 .default_text = "required",
                                 .accepted = "a host (ps, w0, ...) or a switch",
                                 .help = "one end of the link"},
                                {.key = "b",
                                 .type = KeyType::kString,
                                 .default_text = "required",
                                 .accepted = "a host or a switch",
                                 .help = "the other end"},
                                {.key = "bandwidth_mbps",
                                 .type = KeyType::kNumber,
                                 .default_text = "the host's NIC speed",
                                 .accepted = "> 0; required between two switches",
                                 .help = "the link's bandwidth, Mbit/s"},
                                {.key = "latency_us",
                                 .type = KeyType::kNumber,
                                 .default_text = "100",
                                 .range = Range::at_least(0).up_to(kMaxLatencyUs),
                                 .help = "one-way latency, microseconds"}}};
  return decl;
}

namespace {

void read_link(const Json& value, const std::string& path, Diagnostics& diags, Json& out,
               network::LinkSpec& link) {
  ObjectReader r(value, path, diags, out, link_decl());
  link.a = r.string("a", std::nullopt).value_or("");
  link.b = r.string("b", std::nullopt).value_or("");
  // The value (> 0) is judged by check_network_spec, which knows which links may omit it.
  if (const Json* bw = r.accept("bandwidth_mbps")) {
    if (bw->is_number()) {
      link.bandwidth_mbps = bw->get<double>();
      out["bandwidth_mbps"] = *bw;
    } else {
      r.wrong_type("bandwidth_mbps", "a number of Mbit/s (> 0)", *bw);
    }
  }
  link.latency = engine::from_microseconds(
      r.number("latency_us", defaults::kLinkLatencyUs, Range::at_least(0).up_to(kMaxLatencyUs))
          .value_or(0));
  r.finish();
}

}  // namespace

bool read_network(const Json* value, Diagnostics& diags, Json& out, network::NetworkSpec& spec) {
  const std::size_t errors_before = diags.count();
  ObjectReader r(value != nullptr ? *value : empty_object(), "/network", diags, out,
                 network_decl());
  const auto topology = r.choice("topology", {"star", "custom"}, "star");
  if (!topology) {
    // Which keys are valid depends on the topology: do not guess.
    return false;
  }
  spec.topology = *topology;
  if (*topology == "star") {
    spec.star_latency = engine::from_microseconds(
        r.number("latency_us", defaults::kStarLatencyUs, Range::at_least(0).up_to(kMaxLatencyUs))
            .value_or(0));
  } else {
    if (const Json* switches = r.accept("switches")) {
      if (!switches->is_array()) {
        r.wrong_type("switches", "an array of switch names", *switches);
      } else {
        for (std::size_t i = 0; i < switches->size(); ++i) {
          const Json& s = (*switches)[i];
          if (s.is_string()) {
            spec.switches.push_back(s.get<std::string>());
          } else {
            diags.error(pointer_append("/network/switches", i),
                        "wrong type: expected a switch name (string), got " + describe_value(s));
          }
        }
      }
    }
    out["switches"] = spec.switches;
    const Json* links = r.accept("links");
    if (links == nullptr) {
      r.missing("links");
    } else if (!links->is_array()) {
      r.wrong_type("links", "an array of {\"a\", \"b\", \"bandwidth_mbps\", \"latency_us\"}",
                   *links);
    } else {
      Json& out_links = out["links"] = Json::array();
      for (std::size_t i = 0; i < links->size(); ++i) {
        network::LinkSpec link;
        read_link((*links)[i], pointer_append("/network/links", i), diags,
                  out_links.emplace_back(Json::object()), link);
        spec.links.push_back(std::move(link));
      }
    }
  }
  r.finish();
  return diags.count() == errors_before;
}

}  // namespace hermes::scenario
