// E-BSP's descriptor: ASP between barriers that ZipLine places R iterations ahead (docs/paper.md,
// "The baselines").
#include "sim/scenario/protocol_descriptor.h"

namespace hermes::scenario {

ProtocolDescriptor describe_ebsp() {
  ProtocolDescriptor d{
      .id = Protocol::kEbsp,
      .name = "ebsp",
      .label = "E-BSP",
      .source = "ElasticBSP with ZipLine (Zhao et al., ICDM 2019)",
      .traits = {
          .paper_baseline = true, .evaluates_by_update_count = true, .applies_on_arrival = true}};
  using P = ParamType;
  d.params = {
      {.key = "lookahead",
       .position = 40,
       .type = P::kInt,
       .fallback = defaults::kLookahead,
       .range = Range::at_least(1).up_to(limits::kMaxLookahead),
       .help = "E-BSP's R: the iterations ahead its barrier placement predicts",
       .name = NameForm::kValue,
       .name_text = "-",
       .column = ColumnForm::kAlways,
       .field = run_field<&RunSpec::lookahead>()},
      {.key = "pull_between_barriers",
       .position = 50,
       .type = P::kBool,
       .fallback = 0,
       .help = "E-BSP's workers pull the global model after each push, ASP-style, instead of "
               "training on from their own model until the next barrier",
       .name = NameForm::kFlag,
       .name_text = "-pull",
       .column = ColumnForm::kIfChanged,
       .field = run_field<&RunSpec::pull_between_barriers>()},
  };
  return d;
}

}  // namespace hermes::scenario
