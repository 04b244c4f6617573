// Helpers shared by the `fcsn` subcommands: exit codes, one-line error
// reporting, problem loading, the --m-storage option and JSON output.
//
// Exit codes: 0 success (check: converged), 1 check: not converged, 2 bad input
// (unreadable or malformed file, singular M, invalid option). Bad input is
// reported as exactly one line on stderr, "fcsn: <file>: <what is wrong>".
#ifndef FCSN_CLI_CLI_UTIL_H_
#define FCSN_CLI_CLI_UTIL_H_

#include <CLI/CLI.hpp>
#include <nlohmann/json.hpp>
#include <string>

#include "fcsn/fclib_io.h"
#include "fcsn/problem.h"
#include "fcsn/types.h"

namespace fcsn::cli {

inline constexpr int kExitOk = 0;
inline constexpr int kExitNotConverged = 1;
inline constexpr int kExitBadInput = 2;

// Ends the running subcommand with `code` (CLI11 prints nothing for
// CLI::RuntimeError).
[[noreturn]] void ExitWith(int code);

// Prints "fcsn: <message>" as one line on stderr and ends with kExitBadInput.
[[noreturn]] void FailBadInput(const std::string& message);

// Adds `--m-storage auto|as-stored|symmetrized` (default auto) to a subcommand.
void AddMStorageOption(CLI::App* command, std::string* m_storage_name);

// The MStorage named by a validated --m-storage value.
MStorage ParseMStorage(const std::string& name);

// Reads an FCLib global problem or fails with kExitBadInput and the reader's
// one-line error.
void LoadProblemOrExit(const std::string& path,
                       MStorage m_storage,
                       GlobalProblem* problem,
                       FclibFileInfo* info);

// Writes the object as one line of JSON on stdout (invalid UTF-8 replaced).
void PrintJson(const nlohmann::json& object);

}  // namespace fcsn::cli

#endif  // FCSN_CLI_CLI_UTIL_H_
