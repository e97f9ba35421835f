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

void ObserverFanOut::on_span(std::size_t node, SpanKind kind, engine::SimTime start,
                             engine::SimTime end, const EventArgs& args) {
  for (RunObserver* o : observers_) o->on_span(node, kind, start, end, args);
}

void ObserverFanOut::on_instant(std::size_t node, InstantKind kind, engine::SimTime at,
                                const EventArgs& args) {
  for (RunObserver* o : observers_) o->on_instant(node, kind, at, args);
}

void ObserverFanOut::on_counter(std::size_t node, CounterKind kind, engine::SimTime at,
                                double value) {
  for (RunObserver* o : observers_) o->on_counter(node, kind, at, value);
}

}  // namespace hermes::protocols
