#include "sim/cli/gemm_kernel_choice.h"

#include <algorithm>
#include <utility>

#include "base/diagnostics.h"
#include "models/nn/zoo.h"
#include "sim/protocols/skeleton/workload.h"

namespace hermes::cli {
namespace {

constexpr int kEvaluationBatch = 64;  // nn::evaluate's default, which the simulator uses

std::string accepted_kernels() {
  std::string s = "auto";
  for (const nn::GemmKernel k : nn::kGemmKernelsWidestFirst) {
    s += ", " + std::string(nn::gemm_kernel_name(k));
  }
  return s;
}

std::string kernels_here() {
  std::string s;
  for (const nn::GemmKernel k : nn::kGemmKernelsWidestFirst) {
    if (!nn::gemm_kernel_runs_here(k)) continue;
    s += (s.empty() ? "" : ", ") + std::string(nn::gemm_kernel_name(k));
  }
  return s;
}

}  // namespace

void add_gemm_kernel_option(po::options_description& desc, std::string& kernel) {
  desc.add_options()(
      "gemm-kernel", po::value<std::string>(&kernel)->default_value("auto"),
      ("the matrix-product kernel of the math: auto (the widest this CPU runs that gives the "
       "reference's bits on the scenario's own products, checked at start: the same outputs, "
       "sooner) or one of " +
       accepted_kernels().substr(6) + " (forced; every kernel gives the same bits)")
          .c_str());
}

void check_gemm_kernel_option(const std::string& requested) {
  if (requested == "auto") return;
  const auto kernel = nn::gemm_kernel_from_name(requested);
  if (!kernel) {
    throw InputError("--gemm-kernel: '" + requested +
                     "' is not a kernel (accepted: " + accepted_kernels() + ")");
  }
  if (!nn::gemm_kernel_runs_here(*kernel)) {
    throw InputError("--gemm-kernel " + requested + ": this CPU cannot run it (it runs: auto, " +
                     kernels_here() + ")");
  }
}

std::vector<nn::GemmProduct> scenario_gemm_products(
    const std::vector<const scenario::Scenario*>& scenarios) {
  // A sweep's points mostly share their model and batch: each pair is expanded once.
  std::vector<std::pair<nn::ModelSpec, int>> seen;
  std::vector<nn::GemmProduct> out;
  for (const scenario::Scenario* sc : scenarios) {
    std::pair<nn::ModelSpec, int> model{protocols::scenario_model_spec(*sc),
                                        sc->training.batch_size};
    if (std::find(seen.begin(), seen.end(), model) != seen.end()) continue;
    for (const nn::GemmProduct& p :
         nn::model_gemm_products(model.first, {model.second, 1}, {kEvaluationBatch})) {
      if (std::find(out.begin(), out.end(), p) == out.end()) out.push_back(p);
    }
    seen.push_back(std::move(model));
  }
  return out;
}

nn::GemmChoice use_gemm_kernel(const std::string& requested,
                               const std::vector<nn::GemmProduct>& products) {
  nn::GemmChoice choice;
  if (requested == "auto") {
    choice = nn::choose_gemm_kernel(products);
  } else {
    choice.kernel = *nn::gemm_kernel_from_name(requested);
    choice.forced = true;
  }
  nn::set_default_gemm_kernel(choice.kernel);
  return choice;
}

nn::GemmChoice preset_gemm_choice() {
  std::vector<nn::GemmProduct> products;
  for (const nn::ModelSpec& spec : {nn::mlp_spec(), nn::cnn_spec()}) {
    for (const nn::GemmProduct& p :
         nn::model_gemm_products(spec, {scenario::defaults::kBatchSize, 1}, {kEvaluationBatch})) {
      if (std::find(products.begin(), products.end(), p) == products.end()) products.push_back(p);
    }
  }
  return nn::choose_gemm_kernel(products);
}

std::string version_gemm_text() {
  return preset_gemm_choice().text("the mlp and cnn presets'") +
         "; each run checks its own (--gemm-kernel)";
}

ProvenanceJson gemm_provenance(const std::string& requested, const nn::GemmChoice& choice) {
  ProvenanceJson g = ProvenanceJson::object();
  g["kernel"] = std::string(nn::gemm_kernel_name(choice.kernel));
  g["requested"] = requested;
  if (!choice.forced) {
    g["products"] = choice.products;
    ProvenanceJson kernels = ProvenanceJson::array();
    for (const nn::KernelCheck& c : choice.checks) {
      ProvenanceJson e = ProvenanceJson::object();
      e["kernel"] = std::string(nn::gemm_kernel_name(c.kernel));
      e["runs_here"] = c.runs_here;
      if (c.checked) e["matches_reference"] = c.matches;
      kernels.push_back(e);
    }
    g["kernels"] = kernels;
  }
  return g;
}

}  // namespace hermes::cli
