#include "sim/cluster/profile.h"

#include <cmath>
#include <initializer_list>
#include <sstream>
#include <utility>

#include "base/file_read.h"
#include "base/number_text.h"
#include "base/string_join.h"
#include "sim/cluster/compute_model.h"
#include "sim/cluster/size_names.h"
#include "sim/config/json_pointer.h"
#include "sim/config/object_reader.h"
#include "sim/config/text_table.h"

namespace hermes::cluster {
namespace {

// The catalog and the overrides are read with the configuration reader, so their messages have
// the scenario's wording: "<pointer>: <problem> (accepted: <values>)".
using config::describe_value;
using config::non_empty_string;
using config::ObjectReader;
using config::Range;
using config::read_string_list;
using OJson = nlohmann::ordered_json;

// Per-field ranges. Cross-field rules (baseline <= 100% x vCPUs, ...) are checked on the
// assembled profile.
const Range kPositive = Range::above(0);
const Range kNonNegative = Range::at_least(0);
const Range kCv = Range::at_least(0).up_to(1);
constexpr int kMaxVcpus = 1024;
const Range kVcpus = Range::at_least(1).up_to(kMaxVcpus);

// Reads a number into `target` if valid. With `required`, a missing key is an error (catalog);
// without, an absent key keeps the current value (overrides).
void read_number(ObjectReader& r, std::string_view key, Range range, bool required,
                 double& target) {
  if (const auto v =
          r.number(key, required ? std::nullopt : std::optional<double>(target), range)) {
    target = *v;
  }
}

// One number field of a compute or burst object.
struct NumberField {
  std::string_view key;
  const Range& range;
  double* target;
  bool optional = false;  // never required, even in the catalog
};

// The number fields present in `obj` (all of them with `require_all`), into their targets.
void read_numbers(const OJson& obj, const std::string& path, bool require_all,
                  std::initializer_list<NumberField> fields, Diagnostics& diags) {
  OJson resolved;
  ObjectReader r(obj, path, diags, resolved);
  for (const NumberField& f : fields) {
    read_number(r, f.key, f.range, require_all && !f.optional, *f.target);
  }
  r.finish();
}

// The fields of a compute object present in `obj`, into `spec`.
void read_compute(const OJson& obj, const std::string& path, bool require_all, ComputeSpec& spec,
                  Diagnostics& diags) {
  read_numbers(obj, path, require_all,
               {{"gflops", kPositive, &spec.gflops},
                {"step_overhead_us", kNonNegative, &spec.step_overhead_us},
                {"jitter_cv", kCv, &spec.jitter_cv},
                // Optional: without them the PS's evaluation runs at the training rate.
                {"inference_gflops", kPositive, &spec.inference_gflops, true},
                {"eval_overhead_us", kNonNegative, &spec.eval_overhead_us, true}},
               diags);
}

// Same for a burst object. `require_all` when there is no previous BurstSpec to start from.
void read_burst(const OJson& obj, const std::string& path, bool require_all, BurstSpec& spec,
                Diagnostics& diags) {
  read_numbers(obj, path, require_all,
               {{"baseline_pct", kPositive, &spec.baseline_pct},
                {"credits_per_hour", kNonNegative, &spec.credits_per_hour},
                {"max_credits", kNonNegative, &spec.max_credits},
                {"initial_credits", kNonNegative, &spec.initial_credits}},
               diags);
}

bool nearly_equal(double a, double b) {
  return std::abs(a - b) <= 1e-9 * std::max(1.0, std::abs(b));
}

// Rules that tie fields together, checked once all fields are read (and valid).
void check_burst_consistency(const BurstSpec& b, int vcpus, const std::string& path,
                             Diagnostics& diags) {
  if (b.baseline_pct > 100.0 * vcpus) {
    diags.error(pointer_append(path, "baseline_pct"),
                "out of range (accepted: baseline_pct <= 100 x vCPUs = " +
                    std::to_string(100 * vcpus) + ", percent of one vCPU summed over the VM; got " +
                    format_significant(b.baseline_pct) + ")");
  }
  // Azure's definition: idle, a VM banks its baseline, so credits/h = baseline% / 100 * 60 min.
  // The model uses baseline_pct for both accrual and throttling; a mismatch would be silently
  // ignored, so it is an error instead.
  const double expected = b.baseline_pct * 0.6;
  if (!nearly_equal(b.credits_per_hour, expected)) {
    diags.error(pointer_append(path, "credits_per_hour"),
                "inconsistent with baseline_pct (accepted: baseline_pct x 0.6 = " +
                    format_significant(expected) +
                    ", an idle VM earns its baseline: one credit = one vCPU-minute at 100%; got " +
                    format_significant(b.credits_per_hour) + ")");
  }
  if (b.initial_credits > b.max_credits) {
    diags.error(pointer_append(path, "initial_credits"),
                "out of range (accepted: initial_credits <= max_credits = " +
                    format_significant(b.max_credits) + "; got " +
                    format_significant(b.initial_credits) + ")");
  }
}

std::optional<NodeProfile> read_profile(const std::string& name, const OJson& obj,
                                        const std::string& path, Diagnostics& diags) {
  return config::read_object(obj, path, diags, [&](ObjectReader& r) {
    NodeProfile p;
    p.name = name;
    if (auto v = non_empty_string(r, "azure_name")) p.azure_name = std::move(*v);
    const auto vcpus = r.int32("vcpus", std::nullopt, kVcpus);
    if (vcpus) p.vcpus = *vcpus;
    read_number(r, "memory_gib", kPositive, true, p.memory_gib);
    read_number(r, "nic_mbps", kPositive, true, p.nic_mbps);
    if (const OJson* v = r.accept("compute")) {
      read_compute(*v, r.path_of("compute"), true, p.compute, diags);
    } else {
      r.missing("compute");
    }
    if (const OJson* v = r.accept("burst"); v != nullptr && !v->is_null()) {
      BurstSpec b;
      const std::size_t before = diags.count();
      read_burst(*v, r.path_of("burst"), true, b, diags);
      if (diags.count() == before && vcpus)
        check_burst_consistency(b, p.vcpus, r.path_of("burst"), diags);
      p.burst = b;
    }
    if (auto notes = r.string("notes", "")) p.notes = std::move(*notes);
    return p;
  });
}

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
  return config::read_object(obj, path, diags, [&](ObjectReader& r) {
    ReferenceJob job;
    if (auto v = non_empty_string(r, "description")) job.description = std::move(*v);
    read_number(r, "flops", kPositive, true, job.flops);
    // An optimiser-step count: a JSON integer (1.5 or 1e3 are rejected).
    if (const auto steps = r.integer("steps", std::nullopt, Range::at_least(0))) job.steps = *steps;
    if (auto target = non_empty_string(r, "target_seconds_on")) {
      job.target_profile = std::move(*target);
      if (const NodeProfile* p = catalog.find(job.target_profile)) {
        job.target_profile = p->name;
      } else if (profiles_doc != nullptr &&
                 !names_a_profile_entry(*profiles_doc, job.target_profile)) {
        r.error("target_seconds_on", "unknown profile \"" + job.target_profile +
                                         "\" (accepted: one of the catalog's profiles: " +
                                         join_strings(catalog.names()) + ")");
      }
    }
    read_number(r, "target_seconds", kPositive, true, job.target_seconds);
    return job;
  });
}

}  // namespace

ProfileCatalog ProfileCatalog::load(const std::string& path) {
  return config::load_data_file(
      path, kMaxProfileCatalogBytes, "profile catalog",
      [](const OJson& doc, Diagnostics& diags) { return parse(doc, diags); });
}

ProfileCatalog ProfileCatalog::parse(const nlohmann::json& doc, Diagnostics& diags) {
  return parse(OJson(doc), diags);
}

ProfileCatalog ProfileCatalog::parse(const nlohmann::ordered_json& doc, Diagnostics& diags) {
  ProfileCatalog catalog;
  OJson resolved;
  ObjectReader r(doc, "", diags, resolved);
  if (!r.is_object()) return catalog;
  if (const OJson* about = r.accept("about")) {
    std::vector<std::string> ignored;  // documentation of the format, for humans only
    read_string_list(*about, r.path_of("about"), ignored, diags);
  }
  // The reference job names a profile, so it is read once the profiles are known.
  const OJson* reference_job = nullptr;
  OJson calibration_resolved;
  if (const OJson* calibration = r.accept("calibration")) {
    ObjectReader c(*calibration, r.path_of("calibration"), diags, calibration_resolved);
    if (const OJson* notes = c.accept("notes")) {
      read_string_list(*notes, c.path_of("notes"), catalog.calibration_notes_, diags);
    }
    reference_job = c.accept("reference_job");
    c.finish();
  }
  const OJson* profiles = r.accept("profiles");
  r.finish();
  const bool profiles_ok = profiles != nullptr && profiles->is_object() && !profiles->empty();
  if (profiles == nullptr) {
    r.missing("profiles");
  } else if (!profiles_ok) {
    r.error("profiles",
            "wrong type: expected a non-empty object of profiles keyed by short name, got " +
                describe_value(*profiles));
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
      for (const auto& [mine, other] :
           catalog.names_.add_entry(profile->name, profile->azure_name, catalog.profiles_.size())) {
        diags.error(path, "name \"" + mine + "\" clashes with profile " +
                              catalog.profiles_[other].name +
                              " (short and Azure names must be unique, ignoring case)");
      }
      catalog.profiles_.push_back(std::move(*profile));
    }
  }
  if (reference_job != nullptr) {
    catalog.reference_job_ = read_reference_job(*reference_job, "/calibration/reference_job",
                                                catalog, profiles_ok ? profiles : nullptr, diags);
  }
  return catalog;
}

const NodeProfile* ProfileCatalog::find(std::string_view name) const {
  const auto at = names_.find(name);
  return at ? &profiles_[*at] : nullptr;
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
  const std::size_t errors_before = diags.count();
  OJson resolved;
  ObjectReader r(overrides, json_path, diags, resolved);
  if (!r.is_object()) return;
  NodeProfile result = profile;  // applied only if everything is valid
  if (const auto vcpus = r.int32("vcpus", result.vcpus, kVcpus)) result.vcpus = *vcpus;
  read_number(r, "memory_gib", kPositive, false, result.memory_gib);
  read_number(r, "nic_mbps", kPositive, false, result.nic_mbps);
  if (const OJson* compute = r.accept("compute")) {
    read_compute(*compute, r.path_of("compute"), false, result.compute, diags);
  }
  const std::string burst_path = r.path_of("burst");
  if (const OJson* burst = r.accept("burst")) {
    if (burst->is_null()) {
      result.burst.reset();
    } else {
      // A node that was not burstable has nothing to start from: all four fields are needed.
      const bool had_burst = result.burst.has_value();
      BurstSpec b = result.burst.value_or(BurstSpec{});
      read_burst(*burst, burst_path, !had_burst, b, diags);
      result.burst = b;
    }
  }
  r.finish();
  if (diags.count() != errors_before) return;
  // vCPUs or burst fields may have changed: re-check the rules that tie them together.
  if (result.burst) check_burst_consistency(*result.burst, result.vcpus, burst_path, diags);
  if (diags.count() != errors_before) return;
  profile = std::move(result);
}

std::string format_catalog_table(const ProfileCatalog& catalog) {
  const std::optional<ReferenceJob>& job = catalog.reference_job();
  std::vector<std::string> header = {"name",
                                     "azure name",
                                     "vCPU",
                                     "mem GiB",
                                     "NIC Mbps",
                                     "GFLOP/s",
                                     "ovh us",
                                     "infer GFLOP/s",
                                     "eval ovh us",
                                     "jitter",
                                     "burst base%/cr-h/max/init"};
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
    rows.push_back(
        {p.name, p.azure_name, std::to_string(p.vcpus), format_significant(p.memory_gib),
         format_significant(p.nic_mbps), format_fixed(p.compute.gflops, 3),
         format_significant(p.compute.step_overhead_us),
         p.compute.inference_gflops > 0 ? format_fixed(p.compute.inference_gflops, 3) : "= train",
         format_significant(p.compute.eval_overhead_us), format_significant(p.compute.jitter_cv),
         burst});
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
