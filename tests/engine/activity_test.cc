// The activity interface's callback hears how its activity ended: a callback that cannot take
// the outcome is refused at compile time, so no resource can report a failed activity as done to
// a caller that does not look.
#include "sim/engine/activity.h"

#include <gtest/gtest.h>

#include <type_traits>

namespace hermes::engine {
namespace {

struct Cost {};
using OnEnd = ActivityResource<Cost>::OnEnd;

TEST(Activity, CallbacksTakeTheOutcome) {
  static_assert(std::is_constructible_v<OnEnd, void (*)(ActivityOutcome)>);
  static_assert(!std::is_constructible_v<OnEnd, void (*)()>);
  ActivityOutcome seen = ActivityOutcome::kDone;
  const OnEnd on_end = [&](ActivityOutcome how) { seen = how; };
  on_end(ActivityOutcome::kFailed);
  EXPECT_EQ(seen, ActivityOutcome::kFailed);
}

}  // namespace
}  // namespace hermes::engine
