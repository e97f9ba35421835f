// "Did you mean" (base/suggest.h): the distance, the threshold and the message's form.
#include "base/suggest.h"

#include <gtest/gtest.h>

namespace hermes {
namespace {

TEST(Suggest, EditDistanceCountsInsertionsDeletionsSubstitutionsAndSwaps) {
  EXPECT_EQ(edit_distance("", ""), 0u);
  EXPECT_EQ(edit_distance("abc", ""), 3u);
  EXPECT_EQ(edit_distance("", "abc"), 3u);
  EXPECT_EQ(edit_distance("thread", "threads"), 1u);  // insertion
  EXPECT_EQ(edit_distance("threads", "thread"), 1u);  // deletion
  EXPECT_EQ(edit_distance("bsq", "bsp"), 1u);         // substitution
  EXPECT_EQ(edit_distance("hermse", "hermes"), 1u);   // swap of two adjacent characters
  EXPECT_EQ(edit_distance("kitten", "sitting"), 3u);
}

TEST(Suggest, NearestNameWithinTheThreshold) {
  const std::vector<std::string> keys = {"learning_rate", "batch_size", "local_epochs", "stop"};
  EXPECT_EQ(nearest_name("learning_rte", keys), "learning_rate");
  EXPECT_EQ(nearest_name("batchsize", keys), "batch_size");
  EXPECT_EQ(nearest_name("stpo", keys), "stop");
  EXPECT_EQ(nearest_name("Batch_Size", keys), "batch_size");  // case only
  EXPECT_EQ(nearest_name("momentum", keys), std::nullopt);    // another word, not a typo
  EXPECT_EQ(nearest_name("", keys), std::nullopt);
  EXPECT_EQ(nearest_name("stop", keys), std::nullopt);  // nothing mistyped
  // Short names allow one edit only: "bs" is not "stop".
  EXPECT_EQ(nearest_name("xy", {"ps", "a"}), std::nullopt);
  EXPECT_EQ(nearest_name("bsq", {"bsp", "asp", "ssp"}), "bsp");
  // Something must be left as written.
  EXPECT_EQ(nearest_name("x", {"y", "z"}), std::nullopt);
  EXPECT_EQ(nearest_name("ab", {"b"}), std::nullopt);
}

TEST(Suggest, TiesGoToTheFirstCandidateAndTheNearestWins) {
  EXPECT_EQ(nearest_name("asq", {"asp", "asd"}), "asp");
  EXPECT_EQ(nearest_name("hermes1", {"hermes-12", "hermes1x"}), "hermes1x");
}

TEST(Suggest, DidYouMeanIsEmptyOrAPhraseToAppend) {
  EXPECT_EQ(did_you_mean("thread", {"threads", "out"}), "; did you mean 'threads'?");
  EXPECT_EQ(did_you_mean("thread", {"threads"}, ""), "; did you mean threads?");
  EXPECT_EQ(did_you_mean("zzzzzz", {"threads"}), "");
}

}  // namespace
}  // namespace hermes
