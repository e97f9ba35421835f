// Local SGD / FedAvg's descriptor: each round a fraction of the available workers pulls the
// global model, takes H local steps and pushes its change; the PS averages the changes and applies
// the mean, plainly or by DiLoCo's outer step (Nesterov momentum, outer learning rate). Sources:
// McMahan et al. (AISTATS 2017), Lin et al. (ICLR 2020), Douillard et al. (arXiv 2311.08105);
// docs/local_sgd.md. Its parameters' defaults are its rule's (sim/policies/local_sgd_rule.h).
#include "sim/policies/local_sgd_rule.h"
#include "sim/scenario/protocol_descriptor.h"

namespace hermes::scenario {

ProtocolDescriptor describe_local_sgd() {
  namespace def = protocols::local_sgd_defaults;
  ProtocolDescriptor d{.id = Protocol::kLocalSgd,
                       .name = "local_sgd",
                       .label = "local SGD",
                       .source =
                           "local SGD / FedAvg (McMahan et al., AISTATS 2017; Lin et al., ICLR "
                           "2020) with DiLoCo's outer step (Douillard et al., arXiv 2311.08105); "
                           "docs/local_sgd.md",
                       .traits = {.evaluates_by_update_count = true}};
  using P = ParamType;
  d.params = {
      {.key = "local_steps",
       .type = P::kInt,
       .fallback = def::kLocalSteps,
       .range = Range::at_least(1).up_to(1e6),
       .help = "H: the mini-batch steps each participant takes from the global model before it "
               "pushes its change (fewer when its chunk's pass ends first); 1: BSP of one "
               "mini-batch per round",
       .name = NameForm::kValue,
       .name_text = "-H",
       .column = ColumnForm::kAlways},
      {.key = "participation",
       .type = P::kNumber,
       .fallback = def::kParticipation,
       .range = Range::above(0).up_to(1),
       .help = "C: the fraction of the available workers drawn for each round, max(1, floor(C "
               "K)) of K, from the run's own random stream (FedAvg's client fraction)",
       .name = NameForm::kIfChanged,
       .name_text = "-p",
       .column = ColumnForm::kIfChanged},
      {.key = "outer_lr",
       .type = P::kNumber,
       .fallback = def::kOuterLr,
       .range = Range::above(0).up_to(100),
       .help = "the PS's outer learning rate on the round's mean change (1: plain averaging; "
               "DiLoCo: 0.7)",
       .name = NameForm::kIfChanged,
       .name_text = "-olr",
       .column = ColumnForm::kIfChanged},
      {.key = "outer_momentum",
       .type = P::kNumber,
       .fallback = def::kOuterMomentum,
       .range = Range::at_least(0).under(1),
       .help = "the outer step's Nesterov momentum, kept on the PS and in its checkpoints (0: "
               "plain averaging; DiLoCo: 0.9)",
       .name = NameForm::kIfChanged,
       .name_text = "-om",
       .column = ColumnForm::kIfChanged},
  };
  return d;
}

}  // namespace hermes::scenario
