// Layers: hand-computed forward values and double-precision finite-difference gradients.
#include <gtest/gtest.h>

#include <vector>

#include "models/nn/conv2d.h"
#include "models/nn/dense.h"
#include "models/nn/flatten.h"
#include "models/nn/maxpool.h"
#include "models/nn/relu.h"
#include "tests/nn/grad_check.h"

namespace hermes::nn {
namespace {

using testing::check_layer;

TEST(Dense, ForwardMatchesHandComputation) {
  Dense<float> d(Shape{2, 1, 1}, 3);
  // W (3 x 2) column-major = [[1,2],[3,4],[5,6]], b = [0.5, -1, 0].
  std::vector<float> p = {1, 3, 5, 2, 4, 6, 0.5f, -1, 0};
  std::vector<float> g(p.size());
  ASSERT_EQ(d.num_params(), 9u);
  d.bind(p.data(), g.data());
  const std::vector<float> x = {1, -1, 2, 0.5f};  // two samples
  std::vector<float> y(6);
  d.forward(x.data(), y.data(), 2);
  EXPECT_FLOAT_EQ(y[0], -0.5f);  // 1 - 2 + 0.5
  EXPECT_FLOAT_EQ(y[1], -2.0f);  // 3 - 4 - 1
  EXPECT_FLOAT_EQ(y[2], -1.0f);  // 5 - 6
  EXPECT_FLOAT_EQ(y[3], 3.5f);   // 2 + 1 + 0.5
  EXPECT_FLOAT_EQ(y[4], 7.0f);   // 6 + 2 - 1
  EXPECT_FLOAT_EQ(y[5], 13.0f);  // 10 + 3
  // Backward with dy = ones: dW = sum over samples of x^T, db = 2, dx = column sums of W.
  std::vector<float> dy(6, 1.0f), dx(4);
  d.backward(x.data(), y.data(), dy.data(), dx.data(), 2);
  EXPECT_FLOAT_EQ(g[0], 3.0f);   // dW(0,0) = 1 + 2
  EXPECT_FLOAT_EQ(g[3], -0.5f);  // dW(0,1) = -1 + 0.5
  EXPECT_FLOAT_EQ(g[6], 2.0f);
  EXPECT_FLOAT_EQ(dx[0], 9.0f);   // 1 + 3 + 5
  EXPECT_FLOAT_EQ(dx[1], 12.0f);  // 2 + 4 + 6
}

TEST(Dense, GradientCheck) {
  Dense<double> d(Shape{7, 1, 1}, 5);
  EXPECT_EQ(check_layer(d, 3, 1), 5 * 8 + 7 * 3);
}

TEST(Relu, ForwardAndGradientCheck) {
  Relu<float> r(Shape{4, 1, 1});
  std::vector<float> x = {-1, 0, 2, -3}, y(4);
  r.forward(x.data(), y.data(), 1);
  EXPECT_EQ(y, (std::vector<float>{0, 0, 2, 0}));
  std::vector<float> dy = {5, 6, 7, 8};
  r.backward(x.data(), y.data(), dy.data(), dy.data(), 1);  // in place
  EXPECT_EQ(dy, (std::vector<float>{0, 0, 7, 0}));
  Relu<double> rd(Shape{3, 2, 2});
  EXPECT_EQ(check_layer(rd, 2, 2), 24);
}

TEST(Flatten, IsIdentityOnMemory) {
  Flatten<double> f(Shape{2, 3, 3, Layout::kHWC});
  EXPECT_EQ(f.out_shape(), (Shape{18, 1, 1, Layout::kHWC}));
  EXPECT_EQ(check_layer(f, 2, 3), 36);
}

TEST(MaxPool2, ForwardMatchesHandComputation) {
  // One channel, 5x5 CHW input (the last row and column are dropped).
  std::vector<float> x(25);
  for (int i = 0; i < 25; ++i) x[i] = static_cast<float>((i * 7) % 11);
  MaxPool2<float> pool(Shape{1, 5, 5, Layout::kCHW});
  EXPECT_EQ(pool.out_shape(), (Shape{1, 2, 2, Layout::kHWC}));
  pool.reserve(1);
  std::vector<float> y(4);
  pool.forward(x.data(), y.data(), 1);
  // Row 0: 0 7 3 10 6 / row 1: 2 9 5 1 8 / row 2: 4 0 7 3 10 / row 3: 6 2 9 5 1
  EXPECT_EQ(y, (std::vector<float>{9, 10, 6, 9}));
  std::vector<float> dy = {1, 2, 3, 4}, dx(25);
  pool.backward(x.data(), y.data(), dy.data(), dx.data(), 1);
  EXPECT_FLOAT_EQ(dx[6], 1.0f);   // the 9 at (1,1)
  EXPECT_FLOAT_EQ(dx[3], 2.0f);   // the 10 at (0,3)
  EXPECT_FLOAT_EQ(dx[15], 3.0f);  // the 6 at (3,0)
  EXPECT_FLOAT_EQ(dx[17], 4.0f);  // the 9 at (3,2)
  float sum = 0;
  for (float v : dx) sum += v;
  EXPECT_FLOAT_EQ(sum, 10.0f);
}

TEST(MaxPool2, GradientCheckHwcAndChw) {
  MaxPool2<double> hwc(Shape{3, 6, 5, Layout::kHWC});
  EXPECT_EQ(check_layer(hwc, 2, 4), 180);
  MaxPool2<double> chw(Shape{2, 4, 4, Layout::kCHW});
  EXPECT_EQ(check_layer(chw, 2, 5), 64);
}

TEST(Conv2D, ForwardMatchesHandComputation) {
  // 1 channel 3x3 input, one 2x2 filter [[1,0],[0,-1]] (kernel layout (ky,kx,c)), bias 1.
  Conv2D<float> conv(Shape{1, 3, 3, Layout::kCHW}, 1, 2);
  EXPECT_EQ(conv.out_shape(), (Shape{1, 2, 2, Layout::kHWC}));
  std::vector<float> p = {1, 0, 0, -1, 1}, g(5);
  conv.bind(p.data(), g.data());
  conv.reserve(1);
  const std::vector<float> x = {1, 2, 3, 4, 5, 6, 7, 8, 9};
  std::vector<float> y(4);
  conv.forward(x.data(), y.data(), 1);
  // y(oy,ox) = x(oy,ox) - x(oy+1,ox+1) + 1 = -4 + 1 everywhere.
  EXPECT_EQ(y, (std::vector<float>{-3, -3, -3, -3}));
}

TEST(Conv2D, TwoChannelsTwoFiltersHandComputation) {
  // 2-channel 2x2 HWC input, 2x2 kernel -> one output pixel per filter: a dot product.
  Conv2D<float> conv(Shape{2, 2, 2, Layout::kHWC}, 2, 2);
  ASSERT_EQ(conv.num_params(), 2u * 8u + 2u);
  std::vector<float> p(18), g(18);
  // Filter f, column j = (ky*2+kx)*2 + c: W(f, j) = f == 0 ? 1 : j.
  for (int j = 0; j < 8; ++j) {
    p[2 * j] = 1.0f;
    p[2 * j + 1] = static_cast<float>(j);
  }
  p[16] = 0.0f;
  p[17] = -10.0f;
  conv.bind(p.data(), g.data());
  conv.reserve(1);
  // HWC: pixel (y,x) channel c at (y*2 + x)*2 + c, value = index.
  const std::vector<float> x = {0, 1, 2, 3, 4, 5, 6, 7};
  std::vector<float> y(2);
  conv.forward(x.data(), y.data(), 1);
  EXPECT_FLOAT_EQ(y[0], 28.0f);        // 0 + 1 + ... + 7
  EXPECT_FLOAT_EQ(y[1], 140.0f - 10);  // sum j*j for j < 8 = 140
}

TEST(Conv2D, GradientCheckChwInput) {
  Conv2D<double> conv(Shape{2, 5, 6, Layout::kCHW}, 3, 3);
  EXPECT_EQ(check_layer(conv, 2, 6), 3 * (18 + 1) + 2 * 60);
}

TEST(Conv2D, GradientCheckHwcInput) {
  Conv2D<double> conv(Shape{3, 5, 4, Layout::kHWC}, 4, 2);
  EXPECT_EQ(check_layer(conv, 3, 7), 4 * (12 + 1) + 3 * 60);
}

TEST(Conv2D, RejectsKernelLargerThanInput) {
  EXPECT_THROW(Conv2D<float>(Shape{1, 2, 2, Layout::kCHW}, 1, 3), std::invalid_argument);
}

}  // namespace
}  // namespace hermes::nn
