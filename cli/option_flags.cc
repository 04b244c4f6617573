#include "cli/option_flags.h"

#include <cstdint>
#include <stdexcept>
#include <type_traits>

#include "cli/cli_util.h"
#include "fcsn/option_table.h"

namespace fcsn::cli {
namespace {

// Short flags of `fcsn solve` for the rows users set most; every other row
// is reached by --set.
struct ShortFlag {
  const char* flag;
  const char* row;
};
constexpr ShortFlag kShortFlags[] = {
    {"--solver", "solver"},
    {"--formulation", "formulation"},
    {"--tol", "tolerance"},
    {"--max-iter", "max_iterations"},
    {"--line-search", "line_search.type"},
    {"--linear-solver", "linear_solver.type"},
    {"--ordering", "linear_solver.ordering"},
    {"--precision", "linear_solver.precision"},
    {"--rho", "rho.rule"},
    {"--rho-factor", "rho.factor"},
    {"--rho-boost", "rho.initial_boost"},
    {"--warm-rho-boost", "rho.warm_initial_boost"},
    {"--tail-rho-boost", "rho.tail_boost_factor"},
    {"--regularization", "singular_regularization"},
    {"--krylov-reuse", "krylov_reuse_iterations"},
    {"--setup-threads", "setup_threads"},
    {"--warm-sweeps", "hybrid.warm_sweeps"},
    {"--local-solver", "nsgs.local_solver"},
    {"--max-sweeps", "nsgs.max_sweeps"},
    {"--fp-projections", "nsgs.fp_projections"},
    {"--low-rank", "linear_solver.low_rank_tolerance"},
    {"--cold-start", "cold_start"},
};
// Rows of type flag set to true by a flag without a value.
constexpr ShortFlag kTrueFlags[] = {
    {"--out-of-core", "linear_solver.out_of_core"},
    {"--block-ordering", "linear_solver.adaptive_block_ordering"},
};

const OptionInfo& Row(const std::vector<OptionInfo>& table, const char* name) {
  for (const OptionInfo& row : table) {
    if (row.name == name) return row;
  }
  throw std::logic_error(std::string("no option row ") + name);
}

std::string Help(const OptionInfo& row) {
  if (row.type == "flag") return row.doc + " (option " + row.name + ")";
  return row.doc + " (" + row.range + "; option " + row.name + ")";
}

const char* TypeName(const OptionInfo& row) {
  if (row.type == "real") return "FLOAT";
  if (row.type == "integer") return "INT";
  return "TEXT";
}

}  // namespace

void AddOptionFlags(CLI::App* command, OptionSettings* settings) {
  const std::vector<OptionInfo> table = SolverOptionTable();
  for (const ShortFlag& f : kShortFlags) {
    const OptionInfo& row = Row(table, f.row);
    const std::string name = row.name;
    const std::string flag = f.flag;
    command
        ->add_option_function<std::string>(
            f.flag,
            [settings, flag, name](const std::string& value) {
              settings->short_flags.push_back({flag, name, value});
            },
            Help(row))
        ->type_name(TypeName(row))
        ->default_str(row.default_value);
  }
  for (const ShortFlag& f : kTrueFlags) {
    const OptionInfo& row = Row(table, f.row);
    const std::string name = row.name;
    const std::string flag = f.flag;
    command->add_flag_function(
        f.flag,
        [settings, flag, name](std::int64_t) {
          settings->short_flags.push_back({flag, name, "true"});
        },
        Help(row));
  }
  command->add_option("--set",
                      settings->set,
                      "Set any option by its name, NAME=VALUE (repeatable; "
                      "`fcsn options` lists the names, ranges and defaults)");
}

SolverOptions ApplyOptionSettings(const OptionSettings& settings) {
  SolverOptions options;
  for (const OptionSettings::ShortFlagValue& f : settings.short_flags) {
    if (std::string why = SetOption(&options, f.row, f.value); !why.empty())
      FailBadInput(f.flag + ": " + why);
  }
  for (const std::string& assignment : settings.set) {
    const std::size_t equals = assignment.find('=');
    if (equals == std::string::npos)
      FailBadInput("--set '" + assignment + "' is not NAME=VALUE");
    const std::string name = assignment.substr(0, equals);
    if (std::string why =
            SetOption(&options, name, assignment.substr(equals + 1));
        !why.empty()) {
      FailBadInput(why);
    }
  }
  return options;
}

nlohmann::json OptionsJson(const SolverOptions& options) {
  nlohmann::json out = nlohmann::json::object();
  ForEachOption<SolverOptions>(
      [&](const std::string& name, auto access, const auto&, const char*) {
        const auto& value = access(options);
        using T = std::decay_t<decltype(value)>;
        if constexpr (std::is_enum_v<T>) {
          out[name] = ToString(value);
        } else {
          out[name] = value;
        }
      });
  return out;
}

}  // namespace fcsn::cli
