// Factories of the protocol runs (one file each). run_protocol() in sim/protocols/registry.cc
// dispatches.
#pragma once

#include <memory>

#include "sim/protocols/skeleton/protocol_run.h"

namespace hermes::protocols {

std::unique_ptr<ProtocolRun> make_bsp(const scenario::Scenario&, const scenario::RunSpec&,
                                      const data::TrainTestSplit&);
std::unique_ptr<ProtocolRun> make_asp(const scenario::Scenario&, const scenario::RunSpec&,
                                      const data::TrainTestSplit&);
std::unique_ptr<ProtocolRun> make_ebsp(const scenario::Scenario&, const scenario::RunSpec&,
                                       const data::TrainTestSplit&);
std::unique_ptr<ProtocolRun> make_hermes(const scenario::Scenario&, const scenario::RunSpec&,
                                         const data::TrainTestSplit&);
std::unique_ptr<ProtocolRun> make_ssp(const scenario::Scenario&, const scenario::RunSpec&,
                                      const data::TrainTestSplit&);

}  // namespace hermes::protocols
