#include "sim/cli/options.h"

#include <algorithm>
#include <cmath>
#include <iostream>
#include <sstream>
#include <thread>
#include <utility>

#include "base/diagnostics.h"
#include "base/number_text.h"
#include "base/suggest.h"

namespace hermes::cli {

bool parse_options(const std::string& command, const Args& args,
                   const po::options_description& visible, po::variables_map& vm,
                   const po::options_description* hidden,
                   const po::positional_options_description* positional) {
  po::options_description all;
  all.add(visible);
  if (hidden != nullptr) all.add(*hidden);
  const std::string see = " (hermes-sim " + command + " --help lists the options)";
  try {
    po::command_line_parser parser(args);
    parser.options(all).style(kCommandLineStyle);
    if (positional != nullptr) parser.positional(*positional);
    po::store(parser.run(), vm);
    if (vm.count("help")) {
      std::cout << visible << '\n';
      return false;
    }
    po::notify(vm);
  } catch (const po::unknown_option& e) {
    throw InputError(unknown_option_text(e.get_option_name(), visible) + see);
  } catch (const po::error& e) {
    throw InputError(std::string(e.what()) + see);
  }
  return true;
}

std::string unknown_option_text(const std::string& written,
                                const po::options_description& options) {
  std::vector<std::string> names;
  for (const auto& option : options.options()) {
    if (!option->long_name().empty()) names.push_back("--" + option->long_name());
  }
  // "--thread=1" names the option "--thread".
  const std::string name = written.substr(0, written.find('='));
  return "unknown option '" + name + "'" + did_you_mean(name, names);
}

std::string default_text(double value) { return format_number(value); }

std::optional<std::string> parse_options_and_argument(const std::string& command, const Args& args,
                                                      const po::options_description& visible,
                                                      po::variables_map& vm,
                                                      const std::string& what,
                                                      const std::string& usage) {
  po::options_description hidden;
  std::string value;
  hidden.add_options()("argument", po::value<std::string>(&value));
  po::positional_options_description pos;
  pos.add("argument", 1);
  if (!parse_options(command, args, visible, vm, &hidden, &pos)) return std::nullopt;
  if (value.empty()) throw InputError("no " + what + " given (usage: " + usage + ")");
  return value;
}

int default_threads() { return std::max(1, static_cast<int>(std::thread::hardware_concurrency())); }

void add_set_option(po::options_description& desc, std::vector<std::string>& sets,
                    const std::string& scope) {
  desc.add_options()("set", po::value<std::vector<std::string>>(&sets)->composing(),
                     ("override a scenario value" + scope +
                      ": key.path=value (repeatable; runs.<name>.<key> addresses a run by name)")
                         .c_str());
}

void add_data_dir_option(po::options_description& desc, std::string& data_dir) {
  desc.add_options()("data-dir", po::value<std::string>(&data_dir),
                     "directory holding the dataset, the only place looked at when given (default: "
                     "$HERMES_DATA_DIR alone if set, else, in a build tree, <repo>/data, then "
                     "<repo>/../shared/data)");
}

void add_runs_option(po::options_description& desc, std::string& runs, const std::string& scope,
                     const std::string& note) {
  desc.add_options()("runs", po::value<std::string>(&runs),
                     ("comma-separated names of the runs to execute" + scope +
                      " (default: all, in file order" + note + ")")
                         .c_str());
}

void add_resource_options(po::options_description& desc, double& max_memory_gb, double& max_hours) {
  const protocols::ResourceLimits defaults;
  max_memory_gb = defaults.max_memory_bytes / 1e9;
  max_hours = defaults.max_hours;
  desc.add_options()(
      "max-memory",
      po::value<double>(&max_memory_gb)->default_value(max_memory_gb, default_text(max_memory_gb)),
      "refuse a scenario whose estimated memory is above GB gigabytes (1e9 "
      "bytes; scenarios/README.md, \"Limits\")")(
      "max-hours", po::value<double>(&max_hours)->default_value(max_hours, default_text(max_hours)),
      "refuse a scenario whose estimated time on one core (one round of worker iterations of a "
      "protocol run, or a whole demo run) is above H hours");
}

protocols::ResourceLimits resource_limits_from(double max_memory_gb, double max_hours) {
  for (const auto& [value, option] :
       {std::pair{max_memory_gb, "--max-memory"}, std::pair{max_hours, "--max-hours"}}) {
    if (!std::isfinite(value) || !(value > 0)) {
      std::ostringstream text;
      text << value;
      throw InputError(std::string(option) + ": " + text.str() + " (accepted: a number > 0)");
    }
  }
  return {max_memory_gb * 1e9, max_hours};
}

void check_threads(int threads, const std::string& option) {
  if (threads < 1 || threads > 1024) {
    throw InputError(option + ": " + std::to_string(threads) +
                     " threads (accepted: 1 .. 1024; 1 runs the math inline)");
  }
}

}  // namespace hermes::cli
