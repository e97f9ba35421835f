// The staleness parameters of ASP and SSP (see staleness_params.h).
#include "sim/scenario/staleness_params.h"

#include <string_view>

#include "sim/policies/staleness_weight.h"

namespace hermes::scenario {

namespace {

// A run's value of one of these keys; its default in a RunSpec built by hand (not read, nor
// default_run), which has none: a summary of such a run asks column_used and applies.
double own_or_default(const RunSpec& r, std::string_view key, double fallback) {
  const auto it = r.own.find(key);
  return it == r.own.end() ? fallback : it->second;
}

protocols::StalenessWeight weighting(const RunSpec& r) {
  return static_cast<protocols::StalenessWeight>(static_cast<int>(own_or_default(
      r, "staleness_weight", static_cast<int>(protocols::StalenessWeight::kConstant))));
}

}  // namespace

std::vector<RunParam> staleness_params() {
  namespace def = protocols::staleness_defaults;
  using P = ParamType;
  using W = protocols::StalenessWeight;
  return {
      {.key = "staleness_weight",
       .type = P::kChoice,
       .fallback = static_cast<int>(W::kConstant),
       .choices = {"constant", "inverse", "polynomial"},
       .help = "the weight of an arriving update by its staleness tau (global updates applied "
               "since its worker pulled): `constant` 1, `inverse` 1/(1+tau), `polynomial` "
               "(1+tau)^-staleness_exponent (FedAsync); multiplied into the server step "
               "(docs/staleness.md)",
       .name = NameForm::kFlag,
       .name_text = "-inv",
       .choice_name_texts = {"", "-inv", "-poly"},
       .name_rank = 2,
       .column = ColumnForm::kIfChanged,
       .recorded_if_given = true,
       .column_used = [](const RunSpec& r) { return weighting(r) != W::kConstant; }},
      {.key = "staleness_exponent",
       .type = P::kNumber,
       .fallback = def::kExponent,
       .range = Range::at_least(0).up_to(100),
       .help = "with `staleness_weight` `polynomial` (and only then): the exponent a of "
               "(1+tau)^-a; 0.5 is FedBuff's 1/sqrt(1+tau)",
       .name = NameForm::kIfChanged,
       .name_text = "-a",
       .name_rank = 2,
       .column = ColumnForm::kIfChanged,
       .recorded_if_given = true,
       .applies = [](const RunSpec& r) { return weighting(r) == W::kPolynomial; },
       .only_with = {.when = "\"staleness_weight\": \"polynomial\"",
                     .set = "staleness_weight \"polynomial\""},
       .column_used = [](const RunSpec& r) { return weighting(r) == W::kPolynomial; }},
      {.key = "buffer_size",
       .type = P::kInt,
       .fallback = def::kBufferSize,
       .range = Range::at_least(1).up_to(1e6),
       .help = "FedBuff's K: the PS adds the weighted updates of K arrivals into a buffer and "
               "applies their mean at once, one global update; 1: each on arrival",
       .name = NameForm::kIfChanged,
       .name_text = "-buf",
       .name_rank = 2,
       .column = ColumnForm::kIfChanged,
       .recorded_if_given = true,
       .column_used =
           [](const RunSpec& r) {
             return own_or_default(r, "buffer_size", def::kBufferSize) != def::kBufferSize;
           }},
  };
}

}  // namespace hermes::scenario
