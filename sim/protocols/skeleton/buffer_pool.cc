#include "sim/protocols/skeleton/buffer_pool.h"

#include <algorithm>
#include <stdexcept>
#include <string>

namespace hermes::protocols {

BufferPool::BufferPool(std::size_t size) : size_(size), shelf_(std::make_shared<Shelf>()) {}

BufferPool::Buffer BufferPool::acquire() {
  std::unique_ptr<std::vector<float>> v;
  {
    const std::lock_guard lock(shelf_->mu);
    if (!shelf_->free.empty()) {
      v = std::move(shelf_->free.back());
      shelf_->free.pop_back();
    } else {
      ++shelf_->allocated;
    }
  }
  if (v == nullptr) v = std::make_unique<std::vector<float>>(size_);
  // The deleter keeps the shelf alive, so a buffer may outlive the pool (a pending event holding
  // it when the run is torn down).
  return Buffer(v.release(), [shelf = shelf_](std::vector<float>* p) {
    std::unique_ptr<std::vector<float>> owned(p);
    const std::lock_guard lock(shelf->mu);
    shelf->free.push_back(std::move(owned));
  });
}

BufferPool::Buffer BufferPool::copy_of(std::span<const float> values) {
  if (values.size() != size_) {
    throw std::invalid_argument("BufferPool::copy_of: " + std::to_string(values.size()) +
                                " values for buffers of " + std::to_string(size_));
  }
  Buffer b = acquire();
  std::copy(values.begin(), values.end(), b->begin());
  return b;
}

std::size_t BufferPool::allocated() const {
  const std::lock_guard lock(shelf_->mu);
  return shelf_->allocated;
}

}  // namespace hermes::protocols
