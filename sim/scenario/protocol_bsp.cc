// BSP's descriptor: a barrier per round, the PS averages the n updates, every worker pulls the
// new model (docs/paper.md, "The baselines"). Its own parameter: the barrier timeout of churn.
#include "sim/scenario/protocol_descriptor.h"

namespace hermes::scenario {

ProtocolDescriptor describe_bsp() {
  ProtocolDescriptor d{
      .id = Protocol::kBsp,
      .name = "bsp",
      .label = "BSP",
      .source = "bulk synchronous parallel (Valiant, CACM 1990), as the Hermes paper runs it",
      .traits = {
          .paper_baseline = true, .evaluates_by_update_count = true, .speedup_reference = true}};
  using P = ParamType;
  d.params = {
      {.key = "barrier_timeout_s",
       .position = 20,
       .type = P::kNumber,
       .fallback = 0,
       .range = Range::at_least(0).up_to(1e6),
       .help = "BSP closes a round this long after its first update arrived, with the updates "
               "that are in, dropping silent workers from it (docs/churn.md); 0: waits for every "
               "live worker",
       .column = ColumnForm::kIfChanged,
       .field = run_field<&RunSpec::barrier_timeout_s>(),
       .recorded_if_given = true},
  };
  return d;
}

}  // namespace hermes::scenario
