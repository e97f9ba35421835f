// The staleness-aware asynchrony of ASP and SSP (docs/staleness.md), declared once for both
// descriptors (protocol_asp.cc, protocol_ssp.cc): each arriving update's weight as a function of
// its staleness (staleness_weight, staleness_exponent) and FedBuff's buffer (buffer_size). They
// are the protocols' own parameters (RunSpec::own), read by sim/protocols/algorithms/asp_ssp.cc.
// Added after ASP's and SSP's summaries were shipped: absent from a run they keep its resolved
// document as it was (recorded_if_given), and a summary has their columns only when one of its
// runs uses them (RunParam::column_used).
#pragma once

#include <vector>

#include "sim/scenario/run_params.h"

namespace hermes::scenario {

std::vector<RunParam> staleness_params();

}  // namespace hermes::scenario
