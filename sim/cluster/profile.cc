#include "sim/cluster/profile.h"

#include <cmath>
#include <initializer_list>
#include <limits>
#include <sstream>
#include <utility>

#include "base/file_read.h"
#include "base/number_text.h"
#include "base/string_join.h"
#include "sim/cluster/compute_model.h"
#include "sim/config/json_pointer.h"
#include "sim/config/json_read.h"
#include "sim/config/text_table.h"

namespace hermes::cluster {
namespace {

using OJson = nlohmann::ordered_json;

std::string type_name(const OJson& v) { return v.type_name(); }

bool equals_ignore_case(std::string_view a, std::string_view b) {
  if (a.size() != b.size()) return false;
  for (std::size_t i = 0; i < a.size(); ++i) {
    auto lower = [](char c) {
      return (c >= 'A' && c <= 'Z') ? static_cast<char>(c - 'A' + 'a') : c;
    };
    if (lower(a[i]) != lower(b[i])) return false;
  }
  return true;
}

// Reports every key of `obj` not in `accepted`.
void check_keys(const OJson& obj, const std::string& path, const std::vector<std::string>& accepted,
                Diagnostics& diags) {
  for (const auto& [key, value] : obj.items()) {
    bool known = false;
    for (const auto& a : accepted) known = known || key == a;
    if (!known) {
      diags.error(pointer_append(path, key),
                  "unknown key; accepted keys: " + join_strings(accepted));
    }
  }
}

// A numeric field with its accepted range. Range checks are per field; cross-field rules
// (baseline <= 100% x vCPUs, ...) are checked on the assembled profile.
struct NumberRule {
  double min;
  bool min_inclusive;
  double max;            // inclusive
  const char* describe;  // "a number > 0", shown in messages
};

constexpr double kInf = std::numeric_limits<double>::infinity();
constexpr NumberRule kPositive{0, false, kInf, "a number > 0"};
constexpr NumberRule kNonNegative{0, true, kInf, "a number >= 0"};
constexpr NumberRule kCv{0, true, 1, "a number in [0, 1]"};
constexpr NumberRule kPercent{0, false, kInf, "a number > 0 (percent of one vCPU)"};
constexpr int kMaxVcpus = 1024;

// Reads a number into `out` if valid; returns false (after reporting) otherwise.
bool read_number(const OJson& v, const std::string& path, const NumberRule& rule, double& out,
                 Diagnostics& diags) {
  if (!v.is_number()) {
    diags.error(path, std::string("must be ") + rule.describe + ", got " + type_name(v));
    return false;
  }
  const double x = v.get<double>();
  const bool above_min = rule.min_inclusive ? x >= rule.min : x > rule.min;
  if (!std::isfinite(x) || !above_min || x > rule.max) {
    std::ostringstream os;
    os << "must be " << rule.describe << ", got " << v.dump();
    diags.error(path, os.str());
    return false;
  }
  out = x;
  return true;
}

bool read_vcpus(const OJson& v, const std::string& path, int& out, Diagnostics& diags) {
  const std::string rule = "must be an integer >= 1 (at most " + std::to_string(kMaxVcpus) + ")";
  if (!v.is_number_integer()) {
    diags.error(path, rule + ", got " + (v.is_number() ? v.dump() : type_name(v)));
    return false;
  }
  // Signed and unsigned JSON integers both arrive here; compare without narrowing.
  const bool in_range = v.is_number_unsigned()
                            ? (v.get<std::uint64_t>() >= 1 && v.get<std::uint64_t>() <= kMaxVcpus)
                            : (v.get<std::int64_t>() >= 1 && v.get<std::int64_t>() <= kMaxVcpus);
  if (!in_range) {
    diags.error(path, rule + ", got " + v.dump());
    return false;
  }
  out = static_cast<int>(v.get<std::int64_t>());
  return true;
}

bool read_string(const OJson& v, const std::string& path, bool non_empty, std::string& out,
                 Diagnostics& diags) {
  if (!v.is_string()) {
    diags.error(path, std::string("must be a ") + (non_empty ? "non-empty " : "") + "string, got " +
                          type_name(v));
    return false;
  }
  std::string s = v.get<std::string>();
  if (non_empty && s.empty()) {
    diags.error(path, "must be a non-empty string");
    return false;
  }
  out = std::move(s);
  return true;
}

const std::vector<std::string> kComputeKeys = {"gflops", "step_overhead_us", "jitter_cv"};
const std::vector<std::string> kBurstKeys = {"baseline_pct", "credits_per_hour", "max_credits",
                                             "initial_credits"};

// A numeric field of a compute or burst object: its key, range rule and destination.
struct NumberField {
  const char* key;
  const NumberRule& rule;
  double& target;
};

// Reads the fields present in `obj`. With `require_all`, missing fields are errors (catalog);
// without, absent fields keep their value (overrides).
void read_number_fields(const OJson& obj, const std::string& path, bool require_all,
                        std::initializer_list<NumberField> fields, Diagnostics& diags) {
  for (const auto& f : fields) {
    const auto it = obj.find(f.key);
    if (it == obj.end()) {
      if (require_all) {
        diags.error(pointer_append(path, f.key),
                    std::string("missing; required: ") + f.rule.describe);
      }
      continue;
    }
    read_number(*it, pointer_append(path, f.key), f.rule, f.target, diags);
  }
}

// Reads the fields of a compute object present in `obj` into `spec`. With `require_all`, missing
// fields are errors (catalog); without, absent fields keep their value (overrides).
void read_compute(const OJson& obj, const std::string& path, bool require_all, ComputeSpec& spec,
                  Diagnostics& diags) {
  if (!obj.is_object()) {
    diags.error(path, "must be an object with keys " + join_strings(kComputeKeys) + ", got " +
                          type_name(obj));
    return;
  }
  check_keys(obj, path, kComputeKeys, diags);
  read_number_fields(obj, path, require_all,
                     {{"gflops", kPositive, spec.gflops},
                      {"step_overhead_us", kNonNegative, spec.step_overhead_us},
                      {"jitter_cv", kCv, spec.jitter_cv}},
                     diags);
}

// Same for a burst object. `require_all` when there is no previous BurstSpec to start from.
void read_burst(const OJson& obj, const std::string& path, bool require_all, BurstSpec& spec,
                Diagnostics& diags) {
  if (!obj.is_object()) {
    diags.error(path, "must be an object with keys " + join_strings(kBurstKeys) +
                          " (or null for a non-burstable node), got " + type_name(obj));
    return;
  }
  check_keys(obj, path, kBurstKeys, diags);
  read_number_fields(obj, path, require_all,
                     {{"baseline_pct", kPercent, spec.baseline_pct},
                      {"credits_per_hour", kNonNegative, spec.credits_per_hour},
                      {"max_credits", kNonNegative, spec.max_credits},
                      {"initial_credits", kNonNegative, spec.initial_credits}},
                     diags);
}

bool nearly_equal(double a, double b) {
  return std::abs(a - b) <= 1e-9 * std::max(1.0, std::abs(b));
}

// Rules that tie fields together, checked once all fields are read (and valid).
void check_burst_consistency(const BurstSpec& b, int vcpus, const std::string& path,
                             Diagnostics& diags) {
  if (b.baseline_pct > 100.0 * vcpus) {
    std::ostringstream os;
    os << "must be <= 100 x vCPUs = " << 100 * vcpus
       << " (percent of one vCPU summed over the VM), got " << b.baseline_pct;
    diags.error(pointer_append(path, "baseline_pct"), os.str());
  }
  // Azure's definition: idle, a VM banks its baseline, so credits/h = baseline% / 100 * 60 min.
  // The model uses baseline_pct for both accrual and throttling; a mismatch would be silently
  // ignored, so it is an error instead.
  const double expected = b.baseline_pct * 0.6;
  if (!nearly_equal(b.credits_per_hour, expected)) {
    std::ostringstream os;
    os << "must equal baseline_pct x 0.6 = " << expected
       << " (an idle VM earns its baseline: one credit = one vCPU-minute at 100%), got "
       << b.credits_per_hour;
    diags.error(pointer_append(path, "credits_per_hour"), os.str());
  }
  if (b.initial_credits > b.max_credits) {
    std::ostringstream os;
    os << "must be <= max_credits (" << b.max_credits << "), got " << b.initial_credits;
    diags.error(pointer_append(path, "initial_credits"), os.str());
  }
}

const std::vector<std::string> kProfileKeys = {"azure_name", "vcpus", "memory_gib", "nic_mbps",
                                               "compute",    "burst", "notes"};

std::optional<NodeProfile> read_profile(const std::string& name, const OJson& obj,
                                        const std::string& path, Diagnostics& diags) {
  if (!obj.is_object()) {
    diags.error(path, "must be an object with keys " + join_strings(kProfileKeys) + ", got " +
                          type_name(obj));
    return std::nullopt;
  }
  const std::size_t errors_before = diags.count();
  check_keys(obj, path, kProfileKeys, diags);
  NodeProfile p;
  p.name = name;
  auto required = [&](const char* key, const char* what) -> const OJson* {
    const auto it = obj.find(key);
    if (it == obj.end()) {
      diags.error(pointer_append(path, key), std::string("missing; required: ") + what);
      return nullptr;
    }
    return &*it;
  };
  if (const auto* v = required("azure_name", "a non-empty string, e.g. \"Standard_DS2_v2\"")) {
    read_string(*v, pointer_append(path, "azure_name"), true, p.azure_name, diags);
  }
  bool vcpus_ok = false;
  if (const auto* v = required("vcpus", "an integer >= 1")) {
    vcpus_ok = read_vcpus(*v, pointer_append(path, "vcpus"), p.vcpus, diags);
  }
  if (const auto* v = required("memory_gib", kPositive.describe)) {
    read_number(*v, pointer_append(path, "memory_gib"), kPositive, p.memory_gib, diags);
  }
  if (const auto* v = required("nic_mbps", kPositive.describe)) {
    read_number(*v, pointer_append(path, "nic_mbps"), kPositive, p.nic_mbps, diags);
  }
  if (const auto* v =
          required("compute", "an object with keys gflops, step_overhead_us, jitter_cv")) {
    read_compute(*v, pointer_append(path, "compute"), true, p.compute, diags);
  }
  if (const auto it = obj.find("burst"); it != obj.end() && !it->is_null()) {
    BurstSpec b;
    const std::size_t before = diags.count();
    read_burst(*it, pointer_append(path, "burst"), true, b, diags);
    if (diags.count() == before && vcpus_ok) {
      check_burst_consistency(b, p.vcpus, pointer_append(path, "burst"), diags);
    }
    p.burst = b;
  }
  if (const auto it = obj.find("notes"); it != obj.end()) {
    read_string(*it, pointer_append(path, "notes"), false, p.notes, diags);
  }
  if (diags.count() != errors_before) return std::nullopt;
  return p;
}

void read_string_list(const OJson& v, const std::string& path, std::vector<std::string>& out,
                      Diagnostics& diags) {
  if (!v.is_array()) {
    diags.error(path, "must be an array of strings, got " + type_name(v));
    return;
  }
  for (std::size_t i = 0; i < v.size(); ++i) {
    std::string s;
    if (read_string(v[i], pointer_append(path, std::to_string(i)), false, s, diags)) {
      out.push_back(std::move(s));
    }
  }
}

// An optimiser-step count: a JSON integer >= 0 that fits in int64 (1.5 or 1e3 are rejected).
bool read_steps(const OJson& v, const std::string& path, std::int64_t& out, Diagnostics& diags) {
  const char* rule = "must be an integer >= 0";
  if (!v.is_number_integer()) {
    diags.error(path, std::string(rule) + ", got " + (v.is_number() ? v.dump() : type_name(v)));
    return false;
  }
  const bool in_range =
      v.is_number_unsigned()
          ? v.get<std::uint64_t>() <=
                static_cast<std::uint64_t>(std::numeric_limits<std::int64_t>::max())
          : v.get<std::int64_t>() >= 0;
  if (!in_range) {
    diags.error(path, std::string(rule) + ", got " + v.dump());
    return false;
  }
  out = v.get<std::int64_t>();
  return true;
}

const std::vector<std::string> kReferenceJobKeys = {"description", "flops", "steps",
                                                    "target_seconds_on", "target_seconds"};

// True if `name` is the short or Azure name of an entry of the catalog's profiles object, valid or
// not: a target naming a profile that has its own errors must not be reported a second time.
bool names_a_profile_entry(const OJson& profiles, std::string_view name) {
  for (const auto& [key, body] : profiles.items()) {
    if (equals_ignore_case(key, name)) return true;
    if (body.is_object()) {
      const auto azure = body.find("azure_name");
      if (azure != body.end() && azure->is_string() &&
          equals_ignore_case(azure->get<std::string>(), name)) {
        return true;
      }
    }
  }
  return false;
}

// /calibration/reference_job. The target must name a profile of this catalog; it is stored under
// its short name. Read after the profiles so that the target can be resolved; profiles_doc is the
// catalog's profiles object, or nullptr if that is missing or malformed (already reported, so the
// target is then not checked).
std::optional<ReferenceJob> read_reference_job(const OJson& obj, const std::string& path,
                                               const ProfileCatalog& catalog,
                                               const OJson* profiles_doc, Diagnostics& diags) {
  if (!obj.is_object()) {
    diags.error(path, "must be an object with keys " + join_strings(kReferenceJobKeys) + ", got " +
                          type_name(obj));
    return std::nullopt;
  }
  const std::size_t errors_before = diags.count();
  check_keys(obj, path, kReferenceJobKeys, diags);
  auto required = [&](const char* key, const std::string& what) -> const OJson* {
    const auto it = obj.find(key);
    if (it == obj.end()) {
      diags.error(pointer_append(path, key), "missing; required: " + what);
      return nullptr;
    }
    return &*it;
  };
  ReferenceJob job;
  if (const auto* v = required("description", "a non-empty string")) {
    read_string(*v, pointer_append(path, "description"), true, job.description, diags);
  }
  if (const auto* v = required("flops", kPositive.describe)) {
    read_number(*v, pointer_append(path, "flops"), kPositive, job.flops, diags);
  }
  if (const auto* v = required("steps", "an integer >= 0")) {
    read_steps(*v, pointer_append(path, "steps"), job.steps, diags);
  }
  const std::string accepted_names =
      "one of the catalog's profiles (" + join_strings(catalog.names()) + ")";
  if (const auto* v = required("target_seconds_on", "the name of " + accepted_names)) {
    const std::string target_path = pointer_append(path, "target_seconds_on");
    if (read_string(*v, target_path, true, job.target_profile, diags)) {
      if (const NodeProfile* p = catalog.find(job.target_profile)) {
        job.target_profile = p->name;
      } else if (profiles_doc != nullptr &&
                 !names_a_profile_entry(*profiles_doc, job.target_profile)) {
        diags.error(target_path,
                    "unknown profile \"" + job.target_profile + "\"; must be " + accepted_names);
      }
    }
  }
  if (const auto* v = required("target_seconds", kPositive.describe)) {
    read_number(*v, pointer_append(path, "target_seconds"), kPositive, job.target_seconds, diags);
  }
  if (diags.count() != errors_before) return std::nullopt;
  return job;
}

}  // namespace

ProfileCatalog ProfileCatalog::load(const std::string& path) {
  // A regular file of bounded size, parsed with a depth limit (json_read.h): a hostile catalog is
  // an error naming the file, never a hang, a crash or a huge allocation.
  const std::string text = read_regular_file(path, kMaxProfileCatalogBytes, "profile catalog");
  Diagnostics diags(path);
  const auto doc = parse_json_checked(text, diags);
  diags.throw_if_errors();
  ProfileCatalog catalog = parse(*doc, diags);
  diags.throw_if_errors();
  return catalog;
}

ProfileCatalog ProfileCatalog::parse(const nlohmann::json& doc, Diagnostics& diags) {
  return parse(OJson(doc), diags);
}

ProfileCatalog ProfileCatalog::parse(const nlohmann::ordered_json& doc, Diagnostics& diags) {
  ProfileCatalog catalog;
  if (!doc.is_object()) {
    diags.error("", "a profile catalog must be an object with keys about, calibration, profiles");
    return catalog;
  }
  check_keys(doc, "", {"about", "calibration", "profiles"}, diags);
  if (const auto it = doc.find("about"); it != doc.end()) {
    std::vector<std::string> ignored;  // documentation of the format, for humans only
    read_string_list(*it, "/about", ignored, diags);
  }
  // The reference job names a profile, so it is read once the profiles are known.
  const OJson* reference_job = nullptr;
  if (const auto it = doc.find("calibration"); it != doc.end()) {
    if (!it->is_object()) {
      diags.error("/calibration",
                  "must be an object with keys notes, reference_job, got " + type_name(*it));
    } else {
      check_keys(*it, "/calibration", {"notes", "reference_job"}, diags);
      if (const auto notes = it->find("notes"); notes != it->end()) {
        read_string_list(*notes, "/calibration/notes", catalog.calibration_notes_, diags);
      }
      if (const auto job = it->find("reference_job"); job != it->end()) reference_job = &*job;
    }
  }
  const auto profiles = doc.find("profiles");
  const bool profiles_ok = profiles != doc.end() && profiles->is_object() && !profiles->empty();
  if (profiles == doc.end()) {
    diags.error("/profiles", "missing; required: an object of profiles keyed by short name");
  } else if (!profiles_ok) {
    diags.error("/profiles",
                "must be a non-empty object of profiles keyed by short name, got " +
                    (profiles->is_object() ? std::string("{}") : type_name(*profiles)));
  }
  if (profiles_ok) {
    for (const auto& [name, body] : profiles->items()) {
      const std::string path = pointer_append("/profiles", name);
      if (name.empty() || name.find_first_of(" \t\r\n") != std::string::npos) {
        diags.error(path, "profile names must be non-empty and contain no whitespace");
        continue;
      }
      auto profile = read_profile(name, body, path, diags);
      if (!profile) continue;
      // Lookup accepts both names, case-insensitively, so all of them must be distinct.
      for (const auto& other : catalog.profiles_) {
        for (const std::string* mine : {&profile->name, &profile->azure_name}) {
          if (equals_ignore_case(*mine, other.name) ||
              equals_ignore_case(*mine, other.azure_name)) {
            diags.error(path, "name \"" + *mine + "\" clashes with profile " + other.name +
                                  " (short and Azure names must be unique, ignoring case)");
          }
        }
      }
      catalog.profiles_.push_back(std::move(*profile));
    }
  }
  if (reference_job != nullptr) {
    catalog.reference_job_ = read_reference_job(*reference_job, "/calibration/reference_job",
                                                catalog, profiles_ok ? &*profiles : nullptr, diags);
  }
  return catalog;
}

const NodeProfile* ProfileCatalog::find(std::string_view name) const {
  for (const auto& p : profiles_) {
    if (equals_ignore_case(p.name, name) || equals_ignore_case(p.azure_name, name)) return &p;
  }
  return nullptr;
}

std::vector<std::string> ProfileCatalog::names() const {
  std::vector<std::string> out;
  out.reserve(profiles_.size());
  for (const auto& p : profiles_) out.push_back(p.name);
  return out;
}

void apply_overrides(NodeProfile& profile, const nlohmann::json& overrides_in,
                     const std::string& json_path, Diagnostics& diags) {
  const OJson overrides(overrides_in);
  const std::vector<std::string> accepted = {"vcpus", "memory_gib", "nic_mbps", "compute", "burst"};
  if (!overrides.is_object()) {
    diags.error(json_path, "overrides must be an object with keys " + join_strings(accepted) +
                               ", got " + type_name(overrides));
    return;
  }
  const std::size_t errors_before = diags.count();
  NodeProfile result = profile;  // applied only if everything is valid
  check_keys(overrides, json_path, accepted, diags);
  if (const auto it = overrides.find("vcpus"); it != overrides.end()) {
    read_vcpus(*it, pointer_append(json_path, "vcpus"), result.vcpus, diags);
  }
  if (const auto it = overrides.find("memory_gib"); it != overrides.end()) {
    read_number(*it, pointer_append(json_path, "memory_gib"), kPositive, result.memory_gib, diags);
  }
  if (const auto it = overrides.find("nic_mbps"); it != overrides.end()) {
    read_number(*it, pointer_append(json_path, "nic_mbps"), kPositive, result.nic_mbps, diags);
  }
  if (const auto it = overrides.find("compute"); it != overrides.end()) {
    read_compute(*it, pointer_append(json_path, "compute"), false, result.compute, diags);
  }
  const std::string burst_path = pointer_append(json_path, "burst");
  if (const auto it = overrides.find("burst"); it != overrides.end()) {
    if (it->is_null()) {
      result.burst.reset();
    } else {
      // A node that was not burstable has nothing to start from: all four fields are needed.
      const bool had_burst = result.burst.has_value();
      BurstSpec b = result.burst.value_or(BurstSpec{});
      read_burst(*it, burst_path, !had_burst, b, diags);
      result.burst = b;
    }
  }
  if (diags.count() != errors_before) return;
  // vCPUs or burst fields may have changed: re-check the rules that tie them together.
  if (result.burst) check_burst_consistency(*result.burst, result.vcpus, burst_path, diags);
  if (diags.count() != errors_before) return;
  profile = std::move(result);
}

std::string format_catalog_table(const ProfileCatalog& catalog) {
  const std::optional<ReferenceJob>& job = catalog.reference_job();
  std::vector<std::string> header = {"name",    "azure name", "vCPU",
                                     "mem GiB", "NIC Mbps",   "GFLOP/s",
                                     "ovh us",  "jitter",     "burst base%/cr-h/max/init"};
  if (job) {
    header.push_back("chunk s");
    header.push_back("capped s");
  }
  std::vector<std::vector<std::string>> rows;
  for (const auto& p : catalog.profiles()) {
    std::string burst = "-";
    if (p.burst) {
      burst = format_significant(p.burst->baseline_pct) + "/" +
              format_significant(p.burst->credits_per_hour) + "/" +
              format_significant(p.burst->max_credits) + "/" +
              format_significant(p.burst->initial_credits);
    }
    rows.push_back({p.name, p.azure_name, std::to_string(p.vcpus), format_significant(p.memory_gib),
                    format_significant(p.nic_mbps), format_fixed(p.compute.gflops, 3),
                    format_significant(p.compute.step_overhead_us),
                    format_significant(p.compute.jitter_cv), burst});
    if (job) {
      const double seconds = full_speed_seconds(p.compute, job->flops, job->steps);
      std::string capped = "-";
      // Out of credits the VM runs at baseline_pct of one vCPU out of 100% x vCPUs.
      if (p.burst) capped = format_fixed(seconds * 100.0 * p.vcpus / p.burst->baseline_pct, 2);
      rows.back().push_back(format_fixed(seconds, 2));
      rows.back().push_back(capped);
    }
  }
  // Text columns left-aligned, numbers right-aligned; no rule under the header.
  config::TextTable table;
  table.rule = false;
  table.group_gap = table.gap;
  for (std::size_t c = 0; c < header.size(); ++c) table.columns.push_back({"", header[c], c >= 2});
  table.rows = std::move(rows);
  std::ostringstream os;
  config::render_text(os, table);
  if (job) {
    os << "chunk s: predicted full-speed seconds (no jitter) for the calibration reference job, "
       << job->steps << " steps and " << format_fixed(job->flops / 1e9, 4)
       << " GFLOP, calibrated to " << format_significant(job->target_seconds) << " s on "
       << job->target_profile << ".\n  reference job: " << job->description
       << "\ncapped s: the same with no burst credits left.\n";
  } else {
    os << "(this catalog has no calibration reference_job: no predicted times)\n";
  }
  return os.str();
}

std::string catalog_path_in(const std::string& source_dir) {
  return source_dir + "/scenarios/profiles/azure.json";
}

}  // namespace hermes::cluster
