#include "cli/solve_table.h"

#include <cstdio>
#include <iostream>
#include <nlohmann/json.hpp>

#include "cli/cli_util.h"
#include "fcsn/types.h"

namespace fcsn::cli {
namespace {

std::string BaseName(const std::string& file) {
  return file.substr(file.find_last_of('/') + 1);
}

// One line, as FailBadInput prints it: a row must not break the table.
std::string OneLine(std::string text) {
  for (char& c : text) {
    if (c == '\n' || c == '\r') c = ' ';
  }
  return text;
}

}  // namespace

void PrintSolveTableHeader() {
  std::printf("%-40s %6s %5s %-20s %5s %6s %10s %10s %9s\n",
              "file",
              "n",
              "nc",
              "status",
              "iter",
              "sweeps",
              "error",
              "e_nat",
              "time_s");
}

void PrintSolveTableRow(const std::string& file,
                        int n,
                        int nc,
                        const SolverSummary& summary) {
  std::printf("%-40s %6d %5d %-20s %5d %6d %10.2e %10.2e %9.4f\n",
              BaseName(file).c_str(),
              n,
              nc,
              ToString(summary.status),
              summary.iterations,
              summary.nsgs_sweeps,
              summary.WorstError(),
              summary.e_nat,
              summary.timings.total);
}

void ReportBadFile(const std::string& file,
                   const std::string& message,
                   bool json) {
  const std::string line = OneLine(message);
  const char* status = ToString(SolverStatus::kInvalidInput);
  std::cerr << "fcsn: " << line << std::endl;
  if (json) {
    PrintJson({{"file", file}, {"status", status}, {"message", line}});
    return;
  }
  std::printf("%-40s %6s %5s %-20s %s\n",
              BaseName(file).c_str(),
              "-",
              "-",
              status,
              line.c_str());
  std::fflush(stdout);
}

}  // namespace fcsn::cli
