// "availability": how the cluster lives with outages (docs/churn.md): the PS's crash detection
// delay and the stochastic outage models. Written to the resolved document only when present, so
// that a scenario without it stays byte-identical to before it existed.
//
//   "availability": {
//     "detection_s": 10,
//     "checkpoint_interval_s": 300,    (the PS's checkpoints, for PS outages; absent: none)
//     "models": [{"nodes": {"profile": "B1ms"} | {"group": 0} | {"hosts": ["w0", "w3"]},
//                 "kind": "eviction" | "crash",
//                 "probability_per_h": 0.1 | "mtbf_h": 24,   (exactly one)
//                 "outage": {"distribution": "exponential" | "lognormal" | "fixed",
//                            "mean_s": 600, "cv": 1 (lognormal only)},
//                 "notice_s": 30 (eviction only)}]
//   }
#include <algorithm>
#include <set>
#include <stdexcept>
#include <string>
#include <vector>

#include "base/number_text.h"
#include "sim/config/object_reader.h"
#include "sim/scenario/sections.h"

namespace hermes::scenario {

namespace {

// Beyond this many drawn outages a model is unreasonable for its horizon (a rate far too high).
constexpr std::size_t kMaxDrawnOutages = 100000;
// As for events: far inside SimTime's range.
constexpr double kMaxCheckpointSeconds = 1e9;

// The workers a model's "nodes" selects, in host order.
std::vector<std::string> select_hosts(const Json* value, const std::string& path,
                                      const std::vector<NodeSpec>& nodes, bool hosts_known,
                                      Diagnostics& diags, Json& out) {
  std::vector<std::string> hosts;
  if (value == nullptr) {
    diags.error(path,
                "missing (accepted: {\"profile\": NAME}, {\"group\": INDEX} or "
                "{\"hosts\": [\"w0\", ...]})");
    return hosts;
  }
  ObjectReader r(*value, path, diags, out);
  if (!r.is_object()) return hosts;
  const bool by_profile = r.has("profile"), by_group = r.has("group"), by_hosts = r.has("hosts");
  if (by_profile + by_group + by_hosts != 1) {
    diags.error(path, "give exactly one of profile, group, hosts");
    r.finish();
    return hosts;
  }
  std::vector<bool> chosen(nodes.size(), false);
  if (by_profile) {
    if (const auto name = r.string("profile", std::nullopt); name && hosts_known) {
      for (std::size_t i = 0; i < nodes.size(); ++i) {
        chosen[i] = !nodes[i].is_ps() && nodes[i].profile.name == *name;
      }
      if (std::find(chosen.begin(), chosen.end(), true) == chosen.end()) {
        r.error("profile", "no worker of profile '" + *name + "' in the cluster");
      }
    }
  } else if (by_group) {
    if (const auto g = r.integer("group", std::nullopt, Range::at_least(0)); g && hosts_known) {
      for (std::size_t i = 0; i < nodes.size(); ++i) chosen[i] = nodes[i].group == *g;
      if (std::find(chosen.begin(), chosen.end(), true) == chosen.end()) {
        r.error("group", "no worker group " + std::to_string(*g) + " in cluster.workers");
      }
    }
  } else if (const Json* list = r.accept("hosts")) {
    out["hosts"] = *list;
    const auto workers = static_cast<std::size_t>(
        std::count_if(nodes.begin(), nodes.end(), [](const NodeSpec& n) { return !n.is_ps(); }));
    if (!list->is_array() || list->empty()) {
      r.wrong_type("hosts", "a non-empty list of worker names", *list);
    } else {
      for (std::size_t k = 0; k < list->size(); ++k) {
        const Json& h = (*list)[k];
        const auto it = std::find_if(nodes.begin(), nodes.end(), [&](const NodeSpec& n) {
          return h.is_string() && !n.is_ps() && n.host == h.get<std::string>();
        });
        if (it == nodes.end()) {
          if (hosts_known || !h.is_string()) {
            diags.error(r.path_of("hosts") + "/" + std::to_string(k),
                        "not a worker of the cluster: " + describe_value(h) + " (accepted: w0..w" +
                            std::to_string(workers >= 1 ? workers - 1 : 0) + ")");
          }
        } else {
          chosen[static_cast<std::size_t>(it - nodes.begin())] = true;
        }
      }
    }
  }
  r.finish();
  for (std::size_t i = 0; i < nodes.size(); ++i) {
    if (chosen[i]) hosts.push_back(nodes[i].host);
  }
  return hosts;
}

void read_length(const Json* value, const std::string& path, OutageModelSpec& m, Diagnostics& diags,
                 Json& out) {
  if (value == nullptr) {
    diags.error(path,
                "missing (accepted: {\"distribution\": \"exponential\" | \"lognormal\" | "
                "\"fixed\", \"mean_s\": > 0, \"cv\": > 0 for lognormal})");
    return;
  }
  ObjectReader r(*value, path, diags, out);
  if (!r.is_object()) return;
  const auto d = r.choice("distribution", {"exponential", "lognormal", "fixed"}, "exponential");
  if (const auto mean = r.number("mean_s", std::nullopt, Range::above(0).up_to(1e9))) {
    m.model.mean_s = *mean;
  }
  if (d == "lognormal") {
    m.model.length = cluster::OutageLength::kLognormal;
    if (const auto cv = r.number("cv", 1.0, Range::above(0).up_to(100))) m.model.cv = *cv;
  } else {
    m.model.length =
        d == "fixed" ? cluster::OutageLength::kFixed : cluster::OutageLength::kExponential;
  }
  r.finish();
}

void read_model(const Json& value, const std::string& path, const std::vector<NodeSpec>& nodes,
                bool hosts_known, Diagnostics& diags, Json& out,
                std::vector<OutageModelSpec>& models) {
  ObjectReader r(value, path, diags, out);
  if (!r.is_object()) return;
  OutageModelSpec m;
  m.path = path;
  m.hosts =
      select_hosts(r.accept("nodes"), r.path_of("nodes"), nodes, hosts_known, diags, out["nodes"]);
  const auto kind = r.choice("kind", cluster::outage_kind_names(), std::nullopt);
  if (kind) m.kind = *cluster::outage_kind_named(*kind);
  const bool has_p = r.has("probability_per_h"), has_mtbf = r.has("mtbf_h");
  if (has_p == has_mtbf) {
    diags.error(path,
                "give exactly one of probability_per_h (a failure's probability within an "
                "hour, in [1e-16, 1): Azure's Spot eviction rate) and mtbf_h (> 0)");
  } else if (has_p) {
    // Below about 1e-16, 1 - p rounds to 1 in a double and the rate would be 0.
    if (const auto p =
            r.number("probability_per_h", std::nullopt, Range::at_least(1e-16).under(1))) {
      m.model.failures_per_s = cluster::rate_from_hourly_probability(*p);
    }
  } else if (const auto h = r.number("mtbf_h", std::nullopt, Range::above(0).up_to(1e6))) {
    m.model.failures_per_s = 1.0 / (*h * 3600.0);
  }
  read_length(r.accept("outage"), r.path_of("outage"), m, diags, out["outage"]);
  if (kind && cluster::outage_kind(m.kind).announced) {
    if (const auto n =
            r.number("notice_s", defaults::kEvictionNoticeS, Range::at_least(0).up_to(3600))) {
      m.notice = engine::from_seconds(*n);
    }
  }
  r.finish();
  if (kind) models.push_back(std::move(m));
}

}  // namespace

AvailabilitySpec read_availability(const Json& value, const std::vector<NodeSpec>& nodes,
                                   bool hosts_known, Diagnostics& diags, Json& out) {
  AvailabilitySpec spec;
  ObjectReader r(value, "/availability", diags, out);
  if (!r.is_object()) return spec;
  // Beyond an hour the PS would wait for a dead worker longer than most runs last.
  if (const auto s = r.number("detection_s", defaults::kDetectionS, Range::above(0).up_to(3600))) {
    spec.detection = engine::from_seconds(*s);
  }
  if (r.has("checkpoint_interval_s")) {
    // At least a millisecond: finer checkpoints would only flood the event queue.
    if (const auto s = r.number("checkpoint_interval_s", std::nullopt,
                                Range::at_least(1e-3).up_to(kMaxCheckpointSeconds))) {
      spec.checkpoint_interval = engine::from_seconds(*s);
    }
  }
  if (const Json* models = r.accept("models")) {
    if (!models->is_array()) {
      r.wrong_type("models", "a list of outage models", *models);
    } else {
      Json& list = out["models"] = Json::array();
      for (std::size_t i = 0; i < models->size(); ++i) {
        read_model((*models)[i], "/availability/models/" + std::to_string(i), nodes, hosts_known,
                   diags, list.emplace_back(Json::object()), spec.models);
      }
    }
  }
  r.finish();
  return spec;
}

std::vector<OutageSpec> draw_model_outages(const AvailabilitySpec& availability,
                                           const std::vector<DeclaredOutage>& declared,
                                           std::uint64_t seed, engine::SimTime horizon,
                                           const std::vector<NodeSpec>& nodes, Diagnostics& diags) {
  std::set<std::string> taken;
  for (const DeclaredOutage& d : declared) taken.insert(d.spec.node);
  std::vector<OutageSpec> drawn;
  for (const OutageModelSpec& m : availability.models) {
    for (const std::string& host : m.hosts) {
      if (!taken.insert(host).second) {
        diags.error(m.path + "/nodes", "selects " + host +
                                           ", which already has declared outages or another "
                                           "model (accepted: one source of outages per worker)");
        continue;
      }
      const auto h = static_cast<std::uint64_t>(
          std::find_if(nodes.begin(), nodes.end(),
                       [&](const NodeSpec& n) { return n.host == host; }) -
          nodes.begin());
      RandomStream rng = RandomStream::named(seed, "outages", h);
      std::vector<cluster::OutageInterval> intervals;
      if (!(m.model.failures_per_s > 0) || !(m.model.mean_s > 0) || !(m.model.cv > 0)) {
        continue;  // its reader reported the key (draw_outages would throw without naming it)
      }
      try {
        intervals = cluster::draw_outages(m.model, rng, horizon, kMaxDrawnOutages);
      } catch (const std::length_error&) {
        diags.error(m.path, "draws more than " + std::to_string(kMaxDrawnOutages) + " outages of " +
                                host +
                                " within training.stop.max_sim_time_s (accepted: a lower "
                                "rate or a shorter horizon)");
        continue;
      }
      engine::SimTime previous_end{};
      for (std::size_t k = 0; k < intervals.size(); ++k) {
        OutageSpec o;
        o.node = host;
        o.kind = m.kind;
        o.start = intervals[k].start;
        o.end = intervals[k].end;
        // A notice never reaches back into the outage before (the node was gone then).
        if (cluster::outage_kind(m.kind).announced)
          o.notice = std::min(m.notice, o.start - previous_end);
        o.origin = m.path + " (outage " + std::to_string(k + 1) + " of " + host + ")";
        previous_end = intervals[k].end;
        drawn.push_back(std::move(o));
      }
    }
  }
  return drawn;
}

}  // namespace hermes::scenario
