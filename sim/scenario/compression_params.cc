// The compression keys of a run (see compression_params.h).
#include "sim/scenario/compression_params.h"

#include <string_view>

namespace hermes::scenario {

namespace {

using protocols::Compression;

double own_or(const RunSpec& r, std::string_view key, double fallback) {
  const auto it = r.own.find(key);
  return it == r.own.end() ? fallback : it->second;
}

Compression kind_of(const RunSpec& r) {
  return static_cast<Compression>(
      static_cast<int>(own_or(r, "compression", static_cast<int>(Compression::kNone))));
}

bool compresses(const RunSpec& r) { return kind_of(r) != Compression::kNone; }

bool sparse(const RunSpec& r) {
  return kind_of(r) == Compression::kTopK || kind_of(r) == Compression::kRandK;
}

}  // namespace

std::vector<RunParam> compression_params(ProtocolSet takers) {
  using P = ParamType;
  return {
      {.key = "compression",
       .protocols = takers,
       .type = P::kChoice,
       .fallback = static_cast<int>(Compression::kNone),
       .choices = {"none", "fp16", "bf16", "topk", "randk"},
       .help = "what a worker's push carries (docs/compression.md): `none` float32 values, "
               "`fp16` / `bf16` each value rounded to nearest even (2 bytes), `topk` the "
               "`compression_fraction` of values of largest magnitude, `randk` as many drawn at "
               "random (4 bytes of value and 4 of index each); the PS applies what it decodes",
       .name = NameForm::kFlag,
       .name_text = "-",
       .choice_name_texts = {"", "-fp16", "-bf16", "-topk", "-randk"},
       .name_rank = 3,
       .column = ColumnForm::kIfChanged,
       .recorded_if_given = true,
       .column_used = compresses},
      {.key = "compression_fraction",
       .protocols = takers,
       .type = P::kNumber,
       .fallback = protocols::compression_defaults::kFraction,
       .range = Range::above(0).up_to(1),
       .help = "with `compression` `topk` or `randk` (and only then): the fraction of an "
               "update's values sent, k = round(fraction x n), at least 1",
       .name = NameForm::kIfChanged,
       .name_text = "-f",
       .name_rank = 3,
       .column = ColumnForm::kIfChanged,
       .recorded_if_given = true,
       .applies = sparse,
       .only_with = {.when = "\"compression\": \"topk\" or \"randk\"",
                     .set = "compression \"topk\" or \"randk\""},
       .column_used = sparse},
      {.key = "error_feedback",
       .protocols = takers,
       .type = P::kBool,
       .fallback = 0,
       .help = "with a `compression` (and only then): each worker adds what its previous pushes "
               "did not send (its residual) to its next update before compressing it",
       .name = NameForm::kFlag,
       .name_text = "-ef",
       .name_rank = 3,
       .column = ColumnForm::kIfChanged,
       .recorded_if_given = true,
       .applies = compresses,
       .only_with = {.when = "a \"compression\"",
                     .set = "compression \"fp16\", \"bf16\", \"topk\" or \"randk\""},
       .column_used = compresses},
  };
}

protocols::CompressionSpec compression_of(const RunSpec& run) {
  return {kind_of(run),
          own_or(run, "compression_fraction", protocols::compression_defaults::kFraction),
          own_or(run, "error_feedback", 0) != 0};
}

}  // namespace hermes::scenario
