#include "sim/protocols/skeleton/buffer_pool.h"

#include <gtest/gtest.h>

#include <stdexcept>
#include <thread>

namespace hermes::protocols {
namespace {

TEST(BufferPool, DroppedBuffersAreHandedOutAgain) {
  BufferPool pool(5);
  const float values[5] = {1, 2, 3, 4, 5};
  auto a = pool.copy_of(values);
  EXPECT_EQ(*a, (std::vector<float>{1, 2, 3, 4, 5}));
  const float* first = a->data();
  a.reset();
  auto b = pool.acquire();  // the same storage, not a new allocation
  EXPECT_EQ(b->data(), first);
  EXPECT_EQ(b->size(), 5u);
  auto c = pool.acquire();  // b is still in use: a second one
  EXPECT_NE(c->data(), first);
  EXPECT_EQ(pool.allocated(), 2u);
  for (int i = 0; i < 100; ++i) {
    auto d = pool.acquire();  // one at a time: never more than the three
  }
  EXPECT_EQ(pool.allocated(), 3u);
}

TEST(BufferPool, CopyOfTheWrongSizeIsRejected) {
  BufferPool pool(3);
  const float two[2] = {1, 2};
  EXPECT_THROW(pool.copy_of(two), std::invalid_argument);
}

TEST(BufferPool, BuffersMayOutliveThePoolAndBeDroppedOnAnyThread) {
  BufferPool::Buffer kept;
  {
    BufferPool pool(4);
    kept = pool.acquire();
    auto other = pool.acquire();
    std::thread([b = std::move(other)]() mutable { b.reset(); }).join();
  }
  (*kept)[3] = 1.0f;
  kept.reset();  // returns to the shelf the pool left behind
}

}  // namespace
}  // namespace hermes::protocols
