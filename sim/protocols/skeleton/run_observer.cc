#include "sim/protocols/skeleton/run_observer.h"

namespace hermes::protocols {

std::string_view span_name(SpanKind kind) {
  switch (kind) {
    case SpanKind::kCompute:
      return "compute";
    case SpanKind::kChunk:
      return "chunk";
    case SpanKind::kUpdate:
      return "update";
    case SpanKind::kModel:
      return "model";
    case SpanKind::kAggregate:
      return "aggregate";
    case SpanKind::kEvaluate:
      return "evaluate";
    case SpanKind::kWait:
      return "wait";
  }
  return "?";
}

std::string_view instant_name(InstantKind kind) {
  switch (kind) {
    case InstantKind::kUpdate:
      return "update";
    case InstantKind::kMajorUpdate:
      return "major update";
    case InstantKind::kEvaluation:
      return "evaluation";
    case InstantKind::kBarrier:
      return "barrier";
    case InstantKind::kStop:
      return "stop";
  }
  return "?";
}

std::string_view counter_name(CounterKind kind) {
  switch (kind) {
    case CounterKind::kCredits:
      return "credits";
    case CounterKind::kChunkSize:
      return "chunk size";
  }
  return "?";
}

}  // namespace hermes::protocols
