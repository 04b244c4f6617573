// The flags of `fcsn solve` and `fcsn options` that set solver options, all
// derived from the rows of fcsn/option_table.h:
//   --set NAME=VALUE   any row by its dotted name (repeatable; applied after
//                      the short flags, in the order given)
//   --tol, --solver, ... short flags for the common rows (kShortFlags in
//                      option_flags.cc), with the row's doc, range and default
//                      as their help
// and the options of a JSON report (every row by name).
#ifndef FCSN_CLI_OPTION_FLAGS_H_
#define FCSN_CLI_OPTION_FLAGS_H_

#include <CLI/CLI.hpp>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "fcsn/options.h"

namespace fcsn::cli {

// The option values given on the command line.
struct OptionSettings {
  struct ShortFlagValue {
    std::string flag;   // "--tol": named in the message of a bad value
    std::string row;    // "tolerance"
    std::string value;  // as given
  };
  std::vector<ShortFlagValue> short_flags;
  std::vector<std::string> set;  // "NAME=VALUE"
};

// Registers --set and the short flags of the rows on command.
void AddOptionFlags(CLI::App* command, OptionSettings* settings);

// The defaults with settings applied; a bad name or value exits with status
// 2 and one line (the range is left to SolverOptions::Validate()).
SolverOptions ApplyOptionSettings(const OptionSettings& settings);

// Every row of options by name: numbers as numbers, flags as booleans,
// choices and text as strings.
nlohmann::json OptionsJson(const SolverOptions& options);

}  // namespace fcsn::cli

#endif  // FCSN_CLI_OPTION_FLAGS_H_
