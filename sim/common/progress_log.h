// Where a command's progress and informational notes go (stderr of `hermes-sim run` and `sweep`),
// in the format the user chose (--progress text|json|none and --quiet, sim/cli/progress_options.h):
//   text: a live status line, rewritten in place on a terminal (cut to its width: a line that
//         wrapped could not be rewritten), else printed as a plain line; lines that stay;
//   json: JSON Lines, one object per line, never rewritten, flushed per line, each starting with
//         "event" and "wall_s" (the schema of every event is in docs/progress.md);
//   none: no progress.
// Notes ("note: ...") are text, or "note" events in json; --quiet turns them off. Warnings and
// errors never go through here: they are printed whatever the options.
#pragma once

#include <chrono>
#include <cstddef>
#include <nlohmann/json.hpp>
#include <ostream>
#include <string>
#include <string_view>

namespace hermes {

enum class ProgressFormat { kText, kJson, kNone };

class ProgressLog {
 public:
  using Clock = std::chrono::steady_clock;
  using Json = nlohmann::ordered_json;

  // `tty`: `out` is a terminal of `width` columns (0: unknown, lines are not cut). `start`: the
  // origin of every event's wall_s.
  ProgressLog(std::ostream& out, ProgressFormat format, bool notes, bool tty, std::size_t width = 0,
              Clock::time_point start = Clock::now());

  bool text() const { return format_ == ProgressFormat::kText; }
  bool json() const { return format_ == ProgressFormat::kJson; }
  bool tty() const { return tty_; }
  // Wall time since `start`, in seconds.
  double wall_s() const;

  // An informational note: "note: <message>" in text and none, {"event": "note", "message": ...}
  // in json; nothing with notes off. A leading "note: " in `message` is not repeated.
  void note(std::string_view message);
  // json: {"event": <name>, "wall_s": ..., <fields in order>} as one line, flushed. Otherwise
  // nothing. `fields` is an object (or null for none).
  void event(std::string_view name, const Json& fields = nullptr);
  // text: a line that stays (on a terminal it replaces the live line, which the caller redraws
  // with live() if it still wants one). Otherwise nothing.
  void line(std::string_view text);
  // text: the live status line (a plain line when not on a terminal). Otherwise nothing.
  void live(std::string_view text);
  // Leaves the live line on a terminal as it is and moves to the next line, so that what is
  // printed next (stdout included) starts on a line of its own.
  void end_live();

 private:
  std::ostream& out_;
  ProgressFormat format_;
  bool notes_;
  bool tty_;
  std::size_t width_;
  Clock::time_point start_;
  bool live_shown_ = false;  // a live line is on the terminal, without its newline
};

}  // namespace hermes
