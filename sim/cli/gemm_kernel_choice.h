// --gemm-kernel: which GEMM kernel a run's math uses. "auto" (the default) takes the widest kernel
// this CPU runs that gives the reference's bits on the scenario's own products (models/nn/
// gemm_probe.h), so the outputs are those of the profile's kernel, only sooner; a kernel's name
// forces it (to measure, or to check the bytes by hand). provenance.json records the choice.
#pragma once

#include <string>
#include <vector>

#include "models/nn/gemm_probe.h"
#include "sim/cli/options.h"
#include "sim/cli/provenance.h"
#include "sim/scenario/scenario.h"

namespace hermes::cli {

// Adds --gemm-kernel (default "auto") to `desc`, stored into `kernel`.
void add_gemm_kernel_option(po::options_description& desc, std::string& kernel);

// Throws InputError naming --gemm-kernel and the accepted values unless `requested` is "auto" or
// the name of a kernel this CPU runs. Called before any work.
void check_gemm_kernel_option(const std::string& requested);

// The GEMM products of the scenarios' models: training steps at each scenario's mini-batch, the
// last short mini-batch (1) and the evaluation's batches (64).
std::vector<nn::GemmProduct> scenario_gemm_products(
    const std::vector<const scenario::Scenario*>& scenarios);

// Chooses (or takes the forced) kernel for `products`, makes it the process's, and returns the
// choice. `requested` has passed check_gemm_kernel_option.
nn::GemmChoice use_gemm_kernel(const std::string& requested,
                               const std::vector<nn::GemmProduct>& products);

// The kernel auto chooses for the presets (mlp on MNIST, cnn on CIFAR-10) at the default
// mini-batch, and --version's line saying so. Neither changes the process's kernel.
nn::GemmChoice preset_gemm_choice();
std::string version_gemm_text();

// provenance.json's "gemm": {"kernel": "avx512", "requested": "auto", "products": 19,
// "kernels": [{"kernel": "avx512", "runs_here": true, "matches_reference": true},
// {"kernel": "avx2", "runs_here": true}, ...]}: every kernel widest first, with the comparison's
// outcome for those compared (auto stops at the first that matches). A forced kernel records
// only "kernel" and "requested".
ProvenanceJson gemm_provenance(const std::string& requested, const nn::GemmChoice& choice);

}  // namespace hermes::cli
