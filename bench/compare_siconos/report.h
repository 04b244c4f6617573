// report.h: compare_siconos' results (one Row per problem x solver x
// tolerance) and the two files written from them (README.md, "Output"):
// <set>_<m-storage>.csv, one line per Row, and <set>_<m-storage>.md, the
// machine header and five tables (time · iterations · verdict; problems
// solved; time ratios Siconos / fcsn per solver pair; fcsn's time shares;
// own verdict vs fcsn's judge).
#ifndef FCSN_BENCH_COMPARE_SICONOS_REPORT_H_
#define FCSN_BENCH_COMPARE_SICONOS_REPORT_H_

#include <cmath>
#include <string>
#include <vector>

#include "child_run.h"

namespace fcsn_bench {

struct Row {
  std::string problem;
  int n = 0, m = 0, nc = 0;
  std::string solver;
  double tol = 0;
  int reps_run = 0;
  int solved_reps = 0;
  bool skipped = false;  // not run: timed out at a looser tolerance
  RepResult median;      // the repetition with the median time
  double time_min = NAN, time_max = NAN;
  double cpu_median = NAN;  // median over the repetitions of the CPU time
};

// The run's settings, as recorded in the reports.
struct Settings {
  std::string set_name;
  std::string m_storage;
  double time_limit = 60;
  int reps = 3;
  int max_reps = 15;
  double min_row_seconds = 1.0;
  int siconos_max_iterations = 0;
  double siconos_tol_factor = 1.0;
  std::string note;
  std::vector<double> tols;
  std::vector<std::string> solvers;
};

void WriteCsv(const std::string& path,
              const Settings& st,
              const std::vector<Row>& rows);

// machine: MachineDescription() taken at the start of the run.
void WriteMarkdown(const std::string& path,
                   const Settings& st,
                   const std::vector<Row>& rows,
                   const std::string& machine);

}  // namespace fcsn_bench

#endif  // FCSN_BENCH_COMPARE_SICONOS_REPORT_H_
