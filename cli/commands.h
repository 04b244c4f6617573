// Subcommands of the `fcsn` command line tool. Each one registers itself on the
// top-level CLI11 app through one Register*Command function, called from
// main.cc; a command ends with exit code 0 unless it throws
// CLI::RuntimeError(code) (see cli_util.h).
//
// Adding a subcommand: implement Register<Name>Command in cli/<name>.cc,
// declare it here, call it in main.cc and list the source in
// cli/CMakeLists.txt.
#ifndef FCSN_CLI_COMMANDS_H_
#define FCSN_CLI_COMMANDS_H_

#include <CLI/CLI.hpp>

namespace fcsn::cli {

// `fcsn info FILE [--json] [--m-storage auto|as-stored|symmetrized]`: sizes,
// storage notes (triplet/CSC/CSR, upper triangle, explicit zeros), mu range,
// norms of f and w. Exit 0, or 2 on bad input.
void RegisterInfoCommand(CLI::App& app);

// `fcsn check FILE [--solution SOL.hdf5] [--tol 1e-8] [--json] [--m-storage
// ...]`: e_nat, e_eq and Siconos' measure (formulations.md §9) of the solution
// stored in FILE (or in SOL's /solution). Exit 0 if e_nat <= tol and e_eq <=
// tol, 1 if not, 2 on bad input.
void RegisterCheckCommand(CLI::App& app);

// `fcsn solve FILE...` (cli/solve.cc): solve with fcsn::Solver, report or
// --json.
void RegisterSolveCommand(CLI::App& app);

// `fcsn options [--json] [--set NAME=VALUE ...]` (cli/options.cc): every
// solver option with its type, range, value and meaning. Exit 0, or 2 when a
// flag names no option or sets a bad value.
void RegisterOptionsCommand(CLI::App& app);

// `fcsn --version` (cli/version.cc): fcsn's and MUMPS' versions, the BLAS
// the process loaded (kernel family, threads), and a note when the BLAS runs
// kernels below the CPU's (fcsn::GetBuildInfo). Exit 0.
void RegisterVersionFlag(CLI::App& app);

}  // namespace fcsn::cli

#endif  // FCSN_CLI_COMMANDS_H_
