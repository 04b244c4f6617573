// csv_report.cc: WriteCsv of report.h.
#include <fstream>

#include "report.h"
#include "report_format.h"

namespace fcsn_bench {

void WriteCsv(const std::string& path,
              const Settings& st,
              const std::vector<Row>& rows) {
  std::ofstream out(path);
  out << "set,problem,n,m,nc,m_storage,solver,tol,reps_run,time_median_s,"
         "time_min_s,time_max_s,cpu_median_s,iterations,nsgs_sweeps,e_nat,e_eq,"
         "error,solved,"
         "solved_reps,siconos_error_own,siconos_measure,status,"
         "fcsn_factorization_s,fcsn_analysis_s,fcsn_total_s\n";
  for (const Row& r : rows) {
    const RepResult& x = r.median;
    const bool is_fcsn = r.solver.rfind("fcsn", 0) == 0;
    out << CsvQuote(st.set_name) << "," << CsvQuote(r.problem) << "," << r.n
        << "," << r.m << "," << r.nc << "," << st.m_storage << "," << r.solver
        << "," << Fmt("%.0e", r.tol) << "," << r.reps_run << ",";
    if (r.skipped) {
      out << ",,,,,,,,,0,0,,,skipped-after-timeout,,,\n";
      continue;
    }
    out << Fmt("%.6g", x.seconds) << "," << Fmt("%.6g", r.time_min) << ","
        << Fmt("%.6g", r.time_max) << "," << Fmt("%.6g", r.cpu_median) << ","
        << (x.completed ? std::to_string(x.iterations) : "") << ","
        << (is_fcsn && x.completed ? std::to_string(x.nsgs_sweeps) : "") << ","
        << Fmt("%.3e", x.e_nat) << "," << Fmt("%.3e", x.e_eq) << ","
        << Fmt("%.3e", x.error) << "," << (x.solved ? 1 : 0) << ","
        << r.solved_reps << "," << Fmt("%.3e", x.own_error) << ","
        << Fmt("%.3e", x.siconos_measure) << "," << CsvQuote(x.status) << ",";
    if (is_fcsn && x.completed) {
      out << Fmt("%.6g", x.t_factorization) << "," << Fmt("%.6g", x.t_analysis)
          << "," << Fmt("%.6g", x.t_total);
    } else {
      out << ",,";
    }
    out << "\n";
  }
}

}  // namespace fcsn_bench
