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
#include <vector>

#include "fcsn/fclib_io.h"
#include "fcsn/options.h"
#include "fcsn/problem.h"
#include "fcsn/types.h"

namespace fcsn::cli {

inline constexpr int kExitOk = 0;
inline constexpr int kExitNotConverged = 1;
inline constexpr int kExitBadInput = 2;

// The default --tol of `fcsn solve` and `fcsn check`: the library's default
// tolerance (SolverOptions::tolerance), so that `check` judges an output of
// `solve` at the accuracy it was solved to.
inline const double kDefaultTolerance = SolverOptions().tolerance;

// Ends the running subcommand with `code` (CLI11 prints nothing for
// CLI::RuntimeError).
[[noreturn]] void ExitWith(int code);

// Prints "fcsn: <message>" as one line on stderr and ends with kExitBadInput.
[[noreturn]] void FailBadInput(const std::string& message);

// Adds `--m-storage auto|as-stored|symmetrized` (default auto) to a subcommand.
void AddMStorageOption(CLI::App* command, std::string* m_storage_name);

// The MStorage named by a validated --m-storage value.
MStorage ParseMStorage(const std::string& name);

// Process set-up, first thing in main(): HDF5's exit handler is switched off
// (after a corrupt file libhdf5 may keep internal state that its handler
// reports as "infinite loop closing library" plus a long line; fcsn closes
// every file it opens and writes outputs atomically, so nothing depends on
// it), and SIGXFSZ is ignored, so that a file-size limit makes a write fail
// with one line instead of killing the process.
void PrepareProcess();

// Reads an FCLib global problem; "" on success, else the reader's one-line
// error. Reads under a ReadingGuard (cli/crash_guard.h): a crash in libhdf5
// is exit 2 with one line too. `fcsn solve` with several files uses it to
// report a bad file and go on with the next.
std::string LoadProblem(const std::string& path,
                        MStorage m_storage,
                        GlobalProblem* problem,
                        FclibFileInfo* info);

// LoadProblem, failing with kExitBadInput and the reader's one-line error.
void LoadProblemOrExit(const std::string& path,
                       MStorage m_storage,
                       GlobalProblem* problem,
                       FclibFileInfo* info);

// ReadGuesses (fcsn/fclib_io.h) under a ReadingGuard; "" on success, else the
// reader's one-line error.
std::string LoadGuesses(const std::string& path,
                        int n,
                        int m,
                        std::vector<Solution>* guesses);

// ReadSolution / ReadGuesses (fcsn/fclib_io.h) under a ReadingGuard, failing
// with kExitBadInput and the reader's one-line error.
void ReadSolutionOrExit(const std::string& path,
                        int n,
                        int m,
                        Solution* solution);
void ReadGuessesOrExit(const std::string& path,
                       int n,
                       int m,
                       std::vector<Solution>* guesses);

// Fails with kExitBadInput unless `output` is a usable output path: not
// empty, not one of the input files (same file by device and inode, so
// links and other spellings count; fcsn never rewrites its input: the
// written file would not be what was read, no /guesses, M re-stored), and
// its folder takes a new file. The output is written atomically (a file in
// that folder renamed over it), so that is what is probed, by creating and
// removing a file there: permissions, a read-only file system or a missing
// folder are then found before the solve, not after it.
void CheckOutputOrExit(const std::string& output,
                       const std::vector<std::string>& inputs);

// Writes the object as one line of JSON on stdout (invalid UTF-8 replaced).
void PrintJson(const nlohmann::json& object);

}  // namespace fcsn::cli

#endif  // FCSN_CLI_CLI_UTIL_H_
