// Reused model-sized float buffers for what travels between the PS and the workers (updates,
// model snapshots in transfer). A protocol run makes and drops thousands of them; the pool keeps
// the dropped ones and hands them out again, so a run allocates only as many as are ever in
// flight at once.
#pragma once

#include <cstddef>
#include <memory>
#include <mutex>
#include <span>
#include <vector>

namespace hermes::protocols {

class BufferPool {
 public:
  using Buffer = std::shared_ptr<std::vector<float>>;

  // Buffers of `size` floats.
  explicit BufferPool(std::size_t size);

  // A buffer of size() floats with unspecified contents. It returns to the pool when its last
  // reference is dropped, from any thread, even after the pool itself is gone.
  Buffer acquire();
  // A buffer holding a copy of `values` (values.size() == size(), else std::invalid_argument).
  Buffer copy_of(std::span<const float> values);

  std::size_t size() const { return size_; }
  // Buffers made so far (the most ever in use at once).
  std::size_t allocated() const;

 private:
  struct Shelf {
    std::mutex mu;
    std::vector<std::unique_ptr<std::vector<float>>> free;
    std::size_t allocated = 0;
  };
  std::size_t size_;
  std::shared_ptr<Shelf> shelf_;  // shared with every buffer's deleter
};

}  // namespace hermes::protocols
