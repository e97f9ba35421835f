// Every protocol a scenario can name (its descriptor) has a runner in sim/protocols/registry.cc.
#include "sim/protocols/registry.h"

#include <gtest/gtest.h>

#include "sim/scenario/protocol_descriptor.h"

namespace hermes::protocols {
namespace {

TEST(Registry, EveryDescriptorHasARunner) {
  for (const scenario::ProtocolDescriptor& d : scenario::protocol_descriptors()) {
    EXPECT_TRUE(has_runner(d.id)) << d.name << " has no runner in sim/protocols/registry.cc";
  }
}

}  // namespace
}  // namespace hermes::protocols
