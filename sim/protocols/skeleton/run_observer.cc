#include "sim/protocols/skeleton/run_observer.h"

#include <array>

#include "base/enum_text.h"

namespace hermes::protocols {

namespace {
constexpr std::array<std::string_view, 9> kSpanNames{
    "compute", "chunk", "update", "model", "aggregate", "evaluate", "wait", "outage", "link fault"};
static_assert(kSpanNames.size() == enum_count(SpanKind::kLinkFault));
constexpr std::array<std::string_view, 9> kInstantNames{
    "update",          "major update", "evaluation", "barrier", "stop",
    "eviction notice", "departed",     "checkpoint", "restored"};
static_assert(kInstantNames.size() == enum_count(InstantKind::kRestored));
constexpr std::array<std::string_view, 2> kCounterNames{"credits", "chunk size"};
static_assert(kCounterNames.size() == enum_count(CounterKind::kChunkSize));
}  // namespace

std::string_view span_name(SpanKind kind) { return enum_text(kind, kSpanNames); }
std::string_view instant_name(InstantKind kind) { return enum_text(kind, kInstantNames); }
std::string_view counter_name(CounterKind kind) { return enum_text(kind, kCounterNames); }

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
