#include "sim/common/progress_log.h"

#include <cmath>

namespace hermes {

namespace {

constexpr std::string_view kNotePrefix = "note: ";
constexpr std::string_view kClearLine = "\r\033[K";

// `text` cut to `width` bytes (0: whole), not inside a UTF-8 sequence.
std::string_view cut(std::string_view text, std::size_t width) {
  if (width == 0 || text.size() <= width) return text;
  std::size_t n = width;
  while (n > 0 && (static_cast<unsigned char>(text[n]) & 0xC0) == 0x80) --n;
  return text.substr(0, n);
}

}  // namespace

ProgressLog::ProgressLog(std::ostream& out, ProgressFormat format, bool notes, bool tty,
                         std::size_t width, Clock::time_point start)
    : out_(out), format_(format), notes_(notes), tty_(tty), width_(width), start_(start) {}

double ProgressLog::wall_s() const {
  return std::chrono::duration<double>(Clock::now() - start_).count();
}

void ProgressLog::note(std::string_view message) {
  if (!notes_) return;
  if (message.starts_with(kNotePrefix)) message.remove_prefix(kNotePrefix.size());
  if (json()) {
    event("note", Json{{"message", message}});
  } else {
    end_live();
    out_ << kNotePrefix << message << '\n' << std::flush;
  }
}

void ProgressLog::event(std::string_view name, const Json& fields) {
  if (!json()) return;
  Json line;
  line["event"] = name;
  line["wall_s"] = std::round(wall_s() * 1000.0) / 1000.0;  // milliseconds are plenty
  if (fields.is_object()) {
    for (const auto& [key, value] : fields.items()) line[key] = value;
  }
  // Messages may quote a path that is not UTF-8: replaced, never an exception mid-run.
  out_ << line.dump(-1, ' ', false, Json::error_handler_t::replace) << '\n' << std::flush;
}

void ProgressLog::line(std::string_view text) {
  if (!this->text()) return;
  if (live_shown_) out_ << kClearLine;
  live_shown_ = false;
  out_ << text << '\n' << std::flush;
}

void ProgressLog::live(std::string_view text) {
  if (!this->text()) return;
  if (tty_) {
    out_ << kClearLine << cut(text, width_) << std::flush;
    live_shown_ = true;
  } else {
    out_ << text << '\n' << std::flush;
  }
}

void ProgressLog::end_live() {
  if (!live_shown_) return;
  out_ << '\n' << std::flush;
  live_shown_ = false;
}

}  // namespace hermes
