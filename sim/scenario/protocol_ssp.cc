// SSP's descriptor: ASP within a staleness bound s (docs/paper.md, "The baselines"), with ASP's
// staleness-aware weighting and buffer (docs/staleness.md).
#include "sim/scenario/protocol_descriptor.h"
#include "sim/scenario/staleness_params.h"

namespace hermes::scenario {

ProtocolDescriptor describe_ssp() {
  ProtocolDescriptor d{
      .id = Protocol::kSsp,
      .name = "ssp",
      .label = "SSP",
      .source = "stale synchronous parallel (Ho et al., NIPS 2013)",
      .traits = {
          .paper_baseline = true, .evaluates_by_update_count = true, .applies_on_arrival = true}};
  using P = ParamType;
  d.params = {
      {.key = "staleness",
       .position = 30,
       .type = P::kInt,
       .fallback = defaults::kStaleness,
       .range = Range::at_least(0),
       .help = "SSP's bound s: a worker waits while it is more than s iterations ahead of the "
               "slowest; 0 behaves as BSP",
       .name = NameForm::kValue,
       .name_text = "-",
       .column = ColumnForm::kAlways,
       .field = run_field<&RunSpec::staleness>()},
  };
  for (RunParam& p : staleness_params()) d.params.push_back(std::move(p));
  return d;
}

}  // namespace hermes::scenario
