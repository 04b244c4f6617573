// `fcsn options [--json] [--set NAME=VALUE ...] [short flags]`: every solver
// option (fcsn/option_table.h) with its type, range, value and meaning. The
// value is the default, or what the flags given set: a dry run of the
// options of `fcsn solve`, validated the same way (exit 2 and one line on a
// bad name, value or range).
#include <iomanip>
#include <iostream>
#include <memory>

#include "cli/cli_util.h"
#include "cli/commands.h"
#include "cli/option_flags.h"
#include "fcsn/option_table.h"

namespace fcsn::cli {
namespace {

struct OptionsArgs {
  OptionSettings settings;
  bool json = false;
};

void RunOptions(const OptionsArgs& args) {
  const SolverOptions options = ApplyOptionSettings(args.settings);
  if (std::string why = options.Validate(); !why.empty()) FailBadInput(why);
  const std::vector<OptionInfo> table = SolverOptionTable();
  if (args.json) {
    nlohmann::json rows = nlohmann::json::array();
    for (const OptionInfo& row : table) {
      std::string value;
      GetOption(options, row.name, &value);
      rows.push_back({{"name", row.name},
                      {"type", row.type},
                      {"range", row.range},
                      {"default", row.default_value},
                      {"value", value},
                      {"doc", row.doc}});
    }
    PrintJson({{"options", rows}, {"values", OptionsJson(options)}});
    return;
  }
  for (const OptionInfo& row : table) {
    std::string value;
    GetOption(options, row.name, &value);
    std::cout << row.name << " = " << value
              << (value == row.default_value ? "" : " (changed)") << "\n    "
              << row.type << ", " << row.range << ": " << row.doc << "\n";
  }
}

}  // namespace

void RegisterOptionsCommand(CLI::App& app) {
  auto args = std::make_shared<OptionsArgs>();
  CLI::App* command = app.add_subcommand(
      "options",
      "List every solver option (name, value, type, range, meaning); the "
      "flags of `fcsn solve` given here show and check what they set");
  AddOptionFlags(command, &args->settings);
  command->add_flag("--json", args->json, "One JSON object");
  command->callback([args] { RunOptions(*args); });
}

}  // namespace fcsn::cli
