// Command-line parsing shared by every subcommand (Boost.Program_options).
#pragma once

#include <boost/program_options.hpp>

#include <optional>
#include <string>
#include <vector>

#include "sim/cli/commands.h"
#include "sim/protocols/skeleton/resources.h"

namespace hermes::cli {

namespace po = boost::program_options;

// The style of every command's parsing: Boost's default without allow_guessing, so that an
// option is only ever its whole name (`--thread` is an unknown option, not `--threads`).
constexpr int kCommandLineStyle =
    po::command_line_style::default_style & ~po::command_line_style::allow_guessing;

// Parses `args` of `command` ("run", "bench engine", ...) against `visible` (printed by --help,
// which must be one of its options) plus optional hidden positional options. Prints the help and
// returns false for --help; otherwise stores into vm, runs notify and returns true. Boost's errors
// (unknown option, bad value) become InputError naming the command.
bool parse_options(const std::string& command, const Args& args,
                   const po::options_description& visible, po::variables_map& vm,
                   const po::options_description* hidden = nullptr,
                   const po::positional_options_description* positional = nullptr);

// "unknown option '--thread'; did you mean '--threads'?": `written` as Boost reports it (a value
// after '=' is dropped), the suggestion the nearest long name of `options` (base/suggest.h).
std::string unknown_option_text(const std::string& written, const po::options_description& options);

// A default as --help prints it: 0.2, not Boost's 0.20000000000000001 (base/number_text.h).
std::string default_text(double value);

// parse_options for a command taking one positional argument (`what`: "scenario file"), which
// it returns; nullopt after --help. Throws InputError "no <what> given (usage: <usage>)" without
// it.
std::optional<std::string> parse_options_and_argument(const std::string& command, const Args& args,
                                                      const po::options_description& visible,
                                                      po::variables_map& vm,
                                                      const std::string& what,
                                                      const std::string& usage);

// The options several commands share, declared once each so that their names, types and help
// texts cannot drift apart; added where each command's help lists them.
// --set key.path=value (repeatable, composing into `sets`). `scope` says what the override
// applies to when it is more than the one run of the scenario (" for every point", " before
// checking"; "" for run).
void add_set_option(po::options_description& desc, std::vector<std::string>& sets,
                    const std::string& scope = "");
// --data-dir DIR: where the dataset is, the only place looked at when given (sim/common/home_dir.h
// says where it is looked for otherwise).
void add_data_dir_option(po::options_description& desc, std::string& data_dir);
// --runs NAME,...: the runs of the scenario to execute. `scope` as for --set (" at every point");
// `note` adds to the default's parenthesis ("; recorded in sweep.json, ...").
void add_runs_option(po::options_description& desc, std::string& runs,
                     const std::string& scope = "", const std::string& note = "");

// --max-memory GB and --max-hours H (sim/protocols/skeleton/resources.h): the limits of a
// scenario's estimated memory and time, stored into `limits` (checked by resource_limits_from).
void add_resource_options(po::options_description& desc, double& max_memory_gb, double& max_hours);
// Throws InputError naming the option unless both are finite and > 0.
protocols::ResourceLimits resource_limits_from(double max_memory_gb, double max_hours);

// Threads for the math when the user gives none: the machine's hardware threads (at least 1).
int default_threads();
// Throws InputError naming `option` unless 1 <= threads <= 1024.
void check_threads(int threads, const std::string& option);

}  // namespace hermes::cli
