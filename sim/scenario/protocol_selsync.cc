// SelSync's descriptor: each worker's step is synchronised (its model averaged with the others' at
// the PS) or kept local, by the smoothed relative change of its gradient norm against a threshold
// delta (Tyagi and Swany, IEEE CLUSTER 2023; docs/selsync.md). Its parameters are its rule's
// (sim/policies/selsync_rule.h), with the defaults every launch script of the authors' code uses.
#include "sim/policies/selsync_rule.h"
#include "sim/scenario/protocol_descriptor.h"

namespace hermes::scenario {

ProtocolDescriptor describe_selsync() {
  namespace def = protocols::selsync_defaults;
  ProtocolDescriptor d{.id = Protocol::kSelsync,
                       .name = "selsync",
                       .label = "SelSync",
                       .source =
                           "selective synchronisation (Tyagi and Swany, IEEE CLUSTER 2023); "
                           "docs/selsync.md",
                       .traits = {.evaluates_by_update_count = true},
                       .model_copies_per_worker = 1};
  using P = ParamType;
  d.params = {
      {.key = "delta",
       .type = P::kNumber,
       .fallback = def::kDelta,
       .range = Range::at_least(0).up_to(1e6),
       .help = "SelSync's threshold: a worker asks for a synchronisation when the smoothed "
               "relative change of its gradient norm is at least delta (0: every step syncs, "
               "synchronous SGD; large: only the warm-up's steps sync)",
       .name = NameForm::kValue,
       .name_text = "-",
       .column = ColumnForm::kAlways},
      {.key = "smoothing",
       .type = P::kNumber,
       .fallback = def::kSmoothing,
       .range = Range::at_least(0).under(1),
       .help = "SelSync's windowed EWMA's alpha, for the gradient norm and its relative change",
       .name = NameForm::kIfChanged,
       .name_text = "-s",
       .column = ColumnForm::kIfChanged},
      {.key = "window_size",
       .type = P::kInt,
       .fallback = def::kWindow,
       .range = Range::at_least(1).up_to(1e4),
       .help = "SelSync's windowed EWMA's span, in steps; the first 2 window_size - 1 steps of "
               "a worker sync (its warm-up)",
       .name = NameForm::kIfChanged,
       .name_text = "-w",
       .column = ColumnForm::kIfChanged},
  };
  return d;
}

}  // namespace hermes::scenario
