// "transfers": how chunks, updates and models travel: their bytes on the wire and the PS's delay
// before it sends a chunk. The defaults follow "accounting" (docs/released-code.md).
#include <string>

#include "sim/config/key_table.h"
#include "sim/config/object_reader.h"
#include "sim/scenario/sections.h"

namespace hermes::scenario {

namespace {

// gzip.compress(pickle.dumps({"x_train": float32 pixels / 255, "y_train": one-hot float32})) of a
// 2500-sample chunk over its clean size (float32 pixels + a label byte per sample), as measured
// by tools/measure_released_sizes.py on the real training sets (mean of 8 random chunks; the
// chunks varied by less than 1%). MNIST's many zero pixels compress best.
double measured_gzip_ratio(const std::string& dataset) {
  if (dataset == "mnist") return 0.0837;
  if (dataset == "fashion-mnist") return 0.2061;
  if (dataset == "cifar10") return 0.3212;
  return 1;  // a dataset of your own: not measured; set transfers.chunk_gzip_ratio (docs/data.md)
}

// The bytes of a Keras .h5 model file beyond its float32 weights: HDF5's superblock, the groups
// and object headers of each layer's kernel and bias, the SGD optimizer's iteration counter and
// the model_config / training_config JSON attributes. tools/measure_released_sizes.py --h5
// writes a file of that layout for the paper's MLP: 19,736 bytes beyond its 437,544 bytes of
// weights (h5py 3.7.0, HDF5 1.10.8). Rounded to 20 KB: the attributes' exact text (Keras
// version, layer names) varies by a few hundred bytes between Keras versions and models.
constexpr double kH5OverheadBytes = 20000;

void refuse(ObjectReader& r, const char* key, const char* needs) {
  if (r.accept(key) != nullptr) r.error(key, std::string("only with ") + needs);
}

}  // namespace

using config::KeyType;

const ObjectDecl& transfers_decl() {
  static const ObjectDecl decl{
      "transfers",
      {{.key = "chunk_delay_s",
        .type = KeyType::kNumber,
        .default_text = "0 (2 under released-code)",
        .range = Range::at_least(0).up_to(1e6),
        .help = "the PS waits this long between a worker's data request and the chunk's transfer",
        .computed_default = true},
       {.key = "chunk_encoding",
        .type = KeyType::kChoice,
        .default_text = "float32 (pickle-gzip under released-code)",
        .choices = {"float32", "pickle-gzip"},
        .help = "the bytes of a chunk on the wire",
        .computed_default = true},
       {.key = "chunk_gzip_ratio",
        .type = KeyType::kNumber,
        .default_text = "mnist 0.0837, fashion-mnist 0.2061, cifar10 0.3212",
        .range = Range::above(0).up_to(10),
        .help = "pickle-gzip only: compressed over clean size of a chunk",
        .computed_default = true},
       {.key = "update_encoding",
        .type = KeyType::kChoice,
        .default_text = "float32 (json under released-code)",
        .choices = {"float32", "json"},
        .help = "the bytes of an update on the wire",
        .computed_default = true},
       {.key = "model_encoding",
        .type = KeyType::kChoice,
        .default_text = "float32 (h5 under released-code)",
        .choices = {"float32", "h5"},
        .help = "the bytes of a model on the wire",
        .computed_default = true},
       {.key = "model_file_overhead_bytes",
        .type = KeyType::kNumber,
        .default_text = "20000",
        .range = Range::at_least(0).up_to(1e12),
        .help = "h5 only: the bytes of a .h5 model file beyond its float32 weights"},
       {.key = "model_after_evaluation",
        .type = KeyType::kBoolean,
        .default_text = "false (true under released-code)",
        .help = "the pusher gets the global model after the global evaluation of its update",
        .computed_default = true}}};
  return decl;
}

TransferSpec read_transfers(const Json* value, Accounting accounting, const std::string& dataset,
                            Diagnostics& diags, Json& out) {
  TransferSpec t;
  const bool released = accounting == Accounting::kReleasedCode;
  ObjectReader r(value != nullptr ? *value : empty_object(), "/transfers", diags, out,
                 transfers_decl());
  const double delay_s = r.number("chunk_delay_s", released ? defaults::kReleasedChunkDelayS : 0,
                                  Range::at_least(0).up_to(1e6))
                             .value_or(0);
  t.chunk_delay = engine::from_seconds(delay_s);

  const auto chunk =
      r.choice("chunk_encoding", {"float32", "pickle-gzip"}, released ? "pickle-gzip" : "float32");
  if (chunk.value_or("") == "pickle-gzip") {
    t.chunk_encoding = ChunkEncoding::kPickleGzip;
    t.chunk_gzip_ratio =
        r.number("chunk_gzip_ratio", measured_gzip_ratio(dataset), Range::above(0).up_to(10))
            .value_or(1);
  } else {
    refuse(r, "chunk_gzip_ratio", "chunk_encoding \"pickle-gzip\"");
  }

  const auto update =
      r.choice("update_encoding", {"float32", "json"}, released ? "json" : "float32");
  t.update_encoding =
      update.value_or("") == "json" ? UpdateEncoding::kJson : UpdateEncoding::kFloat32;

  const auto model = r.choice("model_encoding", {"float32", "h5"}, released ? "h5" : "float32");
  if (model.value_or("") == "h5") {
    t.model_encoding = ModelEncoding::kH5;
    t.model_file_overhead_bytes =
        r.number("model_file_overhead_bytes", kH5OverheadBytes, Range::at_least(0).up_to(1e12))
            .value_or(0);
  } else {
    refuse(r, "model_file_overhead_bytes", "model_encoding \"h5\"");
  }
  t.model_after_evaluation = r.boolean("model_after_evaluation", released).value_or(false);
  r.finish();
  return t;
}

}  // namespace hermes::scenario
