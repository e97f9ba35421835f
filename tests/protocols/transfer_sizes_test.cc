// The bytes of chunks, updates and models under each encoding of the "transfers" section. The
// expected lengths of the JSON floats were printed by Python 3.11 itself:
// len(repr(float(numpy.float32(v)))) and len(json.dumps([...])).
#include "sim/protocols/skeleton/transfer_sizes.h"

#include <gtest/gtest.h>

#include <limits>
#include <vector>

namespace hermes::protocols {
namespace {

TEST(PythonFloatRepr, LengthsAreThoseOfPythonsRepr) {
  EXPECT_EQ(python_float_repr_length(0.1f), 19);     // 0.10000000149011612
  EXPECT_EQ(python_float_repr_length(1e-5f), 21);    // 9.999999747378752e-06
  EXPECT_EQ(python_float_repr_length(1.5e-5f), 22);  // 1.4999999621068127e-05
  EXPECT_EQ(python_float_repr_length(1e-4f), 21);    // 9.999999747378752e-05
  EXPECT_EQ(python_float_repr_length(0.001f), 21);   // 0.0010000000474974513
  EXPECT_EQ(python_float_repr_length(123.0f), 5);    // 123.0
  EXPECT_EQ(python_float_repr_length(65504.0f), 7);  // 65504.0
  EXPECT_EQ(python_float_repr_length(0.5f), 3);      // 0.5
  EXPECT_EQ(python_float_repr_length(-2.5f), 4);     // -2.5
  EXPECT_EQ(python_float_repr_length(0.0f), 3);      // 0.0
  EXPECT_EQ(python_float_repr_length(-0.0f), 4);     // -0.0
  EXPECT_EQ(python_float_repr_length(1e16f), 22);    // 1.0000000272564224e+16
  EXPECT_EQ(python_float_repr_length(3e38f), 22);    // 3.0000000054977558e+38
  EXPECT_EQ(python_float_repr_length(1e-45f), 21);   // 1.401298464324817e-45
  EXPECT_EQ(python_float_repr_length(std::numeric_limits<float>::quiet_NaN()), 3);  // NaN
  EXPECT_EQ(python_float_repr_length(std::numeric_limits<float>::infinity()), 8);   // Infinity
}

TEST(JsonListBytes, SeparatorsAndBracketsAsJsonDumpsWritesThem) {
  const std::vector<float> v{0.1f, -2.5f, 0.0f, 1e-5f};
  EXPECT_EQ(json_list_bytes(v), 55);  // [0.10000000149011612, -2.5, 0.0, 9.999999747378752e-06]
  EXPECT_EQ(json_list_bytes({}), 2);  // []
  const float inf = std::numeric_limits<float>::infinity();
  const std::vector<float> odd{std::numeric_limits<float>::quiet_NaN(), inf, -inf};
  EXPECT_EQ(json_list_bytes(odd), 26);  // [NaN, Infinity, -Infinity]
}

TEST(TransferBytes, EachEncodingChargesWhatItSends) {
  scenario::TransferSpec clean;
  ModelCost cost;
  cost.params = 1000;
  IterationWork work;
  work.chunk_bytes = 3137.0 * 100;
  const std::vector<float> update(1000, 0.5f);
  EXPECT_EQ(chunk_transfer_bytes(clean, work), 313700);
  EXPECT_EQ(update_transfer_bytes(clean, update), 4000);
  EXPECT_EQ(model_transfer_bytes(clean, cost), 4000);

  scenario::TransferSpec released;
  released.chunk_encoding = scenario::ChunkEncoding::kPickleGzip;
  released.chunk_gzip_ratio = 0.25;
  released.update_encoding = scenario::UpdateEncoding::kJson;
  released.model_encoding = scenario::ModelEncoding::kH5;
  released.model_file_overhead_bytes = 20000;
  EXPECT_EQ(chunk_transfer_bytes(released, work), 313700 * 0.25);
  EXPECT_EQ(update_transfer_bytes(released, update), 2 + 999 * 2 + 1000 * 3);  // "0.5" each
  EXPECT_EQ(model_transfer_bytes(released, cost), 4000 + 20000);
}

}  // namespace
}  // namespace hermes::protocols
