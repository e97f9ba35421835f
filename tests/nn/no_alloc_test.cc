// The training step must not touch the heap. This test binary interposes malloc & co. (glibc
// lets a program define them; they forward to __libc_*) and counts calls while armed. That
// catches operator new and direct malloc calls alike, so it proves the step stays
// allocation-free, not just our own containers. Sanitizer builds interpose
// malloc themselves, so there the test is skipped.
#include <gtest/gtest.h>

#include <cstddef>
#include <cstdint>
#include <vector>

#include "base/random.h"
#include "models/nn/model.h"
#include "models/nn/zoo.h"

#if defined(__SANITIZE_ADDRESS__) || defined(__SANITIZE_THREAD__)
#define HERMES_NN_COUNT_MALLOC 0
#else
#define HERMES_NN_COUNT_MALLOC 1
#endif

#if HERMES_NN_COUNT_MALLOC
namespace {
bool g_armed = false;
long g_allocations = 0;
float* volatile g_sink = nullptr;  // keeps the compiler from eliding a test allocation
}  // namespace

extern "C" {
void* __libc_malloc(std::size_t);
void* __libc_calloc(std::size_t, std::size_t);
void* __libc_realloc(void*, std::size_t);
void* __libc_memalign(std::size_t, std::size_t);

void* malloc(std::size_t n) {
  if (g_armed) ++g_allocations;
  return __libc_malloc(n);
}
void* calloc(std::size_t n, std::size_t size) {
  if (g_armed) ++g_allocations;
  return __libc_calloc(n, size);
}
void* realloc(void* p, std::size_t n) {
  if (g_armed) ++g_allocations;
  return __libc_realloc(p, n);
}
void* aligned_alloc(std::size_t align, std::size_t n) {
  if (g_armed) ++g_allocations;
  return __libc_memalign(align, n);
}
int posix_memalign(void** out, std::size_t align, std::size_t n) {
  if (g_armed) ++g_allocations;
  *out = __libc_memalign(align, n);
  return *out != nullptr ? 0 : 12;  // ENOMEM
}
}
#endif

namespace hermes::nn {
namespace {

long allocations_in_steps(const ModelSpec& spec, int batch, int steps) {
#if HERMES_NN_COUNT_MALLOC
  Model m = make_model(spec, 1);
  m.reserve_batch(batch);
  RandomStream rng(1, 0);
  for (std::size_t i = 0; i < m.input_dim() * static_cast<std::size_t>(batch); ++i) {
    m.input()[i] = static_cast<float>(rng.uniform01());
  }
  std::vector<std::uint8_t> labels(static_cast<std::size_t>(batch));
  for (auto& l : labels) l = static_cast<std::uint8_t>(rng.uniform_int(10));
  m.forward_backward(labels.data(), batch);  // warm-up (the thread's GEMM packing buffers)
  m.sgd_step(0.01f);
  g_allocations = 0;
  g_armed = true;
  for (int s = 0; s < steps; ++s) {
    m.forward_backward(labels.data(), batch);
    m.sgd_step(0.01f);
    m.forward_backward(labels.data(), batch - 3);  // a smaller last batch reuses the buffers
    m.sgd_step(0.01f);
    m.forward_loss(labels.data(), batch);
  }
  g_armed = false;
  return g_allocations;
#else
  (void)spec, (void)batch, (void)steps;
  return -1;
#endif
}

TEST(NoAlloc, HookCountsAllocations) {
#if HERMES_NN_COUNT_MALLOC
  g_allocations = 0;
  g_armed = true;
  std::vector<float> v(1000);
  g_sink = v.data();
  g_armed = false;
  EXPECT_EQ(g_allocations, 1);
#else
  GTEST_SKIP() << "sanitizer build: malloc is interposed by the sanitizer";
#endif
}

TEST(NoAlloc, MlpTrainingStepAtBatch16) {
#if !HERMES_NN_COUNT_MALLOC
  GTEST_SKIP() << "sanitizer build";
#endif
  EXPECT_EQ(allocations_in_steps(mlp_spec(), 16, 5), 0);
}

TEST(NoAlloc, CnnTrainingStepAtBatch16) {
#if !HERMES_NN_COUNT_MALLOC
  GTEST_SKIP() << "sanitizer build";
#endif
  EXPECT_EQ(allocations_in_steps(cnn_spec(), 16, 2), 0);
}

}  // namespace
}  // namespace hermes::nn
