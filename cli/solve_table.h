// The table `fcsn solve` prints for several files: one row per file, solved
// or not, so that a run over a folder says what happened to each file.
#ifndef FCSN_CLI_SOLVE_TABLE_H_
#define FCSN_CLI_SOLVE_TABLE_H_

#include <string>

#include "fcsn/summary.h"

namespace fcsn::cli {

void PrintSolveTableHeader();

// The row of a solved file (its name without the folder).
void PrintSolveTableRow(const std::string& file,
                        int n,
                        int nc,
                        const SolverSummary& summary);

// A file that is bad input: "fcsn: <message>" on stderr, as for one file, and
// on stdout its table row with status invalid-input and the message (with
// json, one JSON object {file, status, message} instead of the row).
void ReportBadFile(const std::string& file,
                   const std::string& message,
                   bool json);

}  // namespace fcsn::cli

#endif  // FCSN_CLI_SOLVE_TABLE_H_
