// The kinds of outage a node meets (docs/churn.md, "What an outage does"), as one table: a row
// says everything the readers and the run need to know of a kind, so that a new kind is a row
// here and the word its readers accept, not a branch in every file that meets an outage.
#pragma once

#include <array>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace hermes::cluster {

enum class OutageKind {
  kCrash,     // unannounced: the PS learns of it availability.detection_s later
  kEviction,  // a Spot eviction: announced `notice` before the node is gone
};

// When the PS hears that a node went (and stops counting on it).
enum class Detection {
  kHeartbeatTimeout,  // availability.detection_s after it went (a missed heartbeat)
  kAtNotice,          // at its notice (Azure's Scheduled Events "Preempt"), before it goes
};

struct OutageKindRow {
  OutageKind kind;
  // The word of "events", of the trace's "event" column, of availability.models' "kind", and
  // the reason of the outage spans in the trace output.
  std::string_view name;
  // A notice comes notice_s before the node goes: the readers take a notice_s (30 s by default),
  // the node starts nothing new from then on.
  bool announced;
  Detection detection;
  // The VM stays allocated while the process is gone, so its time is billed; a kind that is
  // not billed counts its downtime as deallocated too (NodeChurn::deallocated).
  bool billed_while_gone;
  // The node comes back as a new VM: its burst bank starts over at the profile's initial credits.
  bool fresh_vm_on_return;
};

// In the enum's order (the readers list the words in this order).
inline constexpr std::array<OutageKindRow, 2> kOutageKinds{{
    {.kind = OutageKind::kCrash,
     .name = "crash",
     .announced = false,
     .detection = Detection::kHeartbeatTimeout,
     .billed_while_gone = true,
     .fresh_vm_on_return = false},
    {.kind = OutageKind::kEviction,
     .name = "eviction",
     .announced = true,
     .detection = Detection::kAtNotice,
     .billed_while_gone = false,
     .fresh_vm_on_return = true},
}};

// The row of `kind`.
const OutageKindRow& outage_kind(OutageKind kind);

// The kind named `name` ("crash", "eviction"), nullopt for another word.
std::optional<OutageKind> outage_kind_named(std::string_view name);

// Every kind's word, in the table's order: the accepted words of a reader.
std::vector<std::string> outage_kind_names();

}  // namespace hermes::cluster
