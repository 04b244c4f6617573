// child_run.cc: see child_run.h.
#include "child_run.h"

#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <sys/resource.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <ctime>
#include <optional>
#include <sstream>
#include <string>
#include <vector>

#include "fcsn/error_measures.h"
#include "fcsn/fclib_io.h"
#include "fcsn/solver.h"
#include "fcsn/summary.h"
#include "fcsn/types.h"

namespace fcsn_bench {
namespace {

using Clock = std::chrono::steady_clock;

// ---------------------------------------------------------------- child

// Fixed-size record the child sends after the 'S' (solve started) byte,
// followed by n doubles of v and m doubles of r.
struct WireResult {
  double seconds = 0.0;
  double cpu_seconds = 0.0;
  int iterations = 0;
  int nsgs_sweeps = -1;  // fcsn only
  int info = 0;          // Siconos: driver return; fcsn: SolverStatus index
  double own_error = 0.0;
  double t_total = 0.0;  // fcsn SolverSummary timings
  double t_factorization = 0.0;
  double t_analysis = 0.0;
  int factorizations = 0;
  char status[48] = {};
  int n = 0;
  int m = 0;
};

bool WriteAll(int fd, const void* data, size_t size) {
  const char* p = static_cast<const char*>(data);
  while (size > 0) {
    ssize_t k = write(fd, p, size);
    if (k < 0) {
      if (errno == EINTR) continue;
      return false;
    }
    p += k;
    size -= static_cast<size_t>(k);
  }
  return true;
}

double CpuSeconds() {
  timespec t;
  clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &t);
  return t.tv_sec + 1e-9 * t.tv_nsec;
}

// Solver chatter (Siconos prints) goes to the log, never to our stdout; the
// optional RLIMIT_AS caps the child's memory.
void RedirectOutputAndLimitMemory(const RunConfig& config) {
  int out =
      open(config.log_path.empty() ? "/dev/null" : config.log_path.c_str(),
           O_WRONLY | O_CREAT | O_TRUNC,
           0644);
  if (out >= 0) {
    dup2(out, STDOUT_FILENO);
    dup2(out, STDERR_FILENO);
    close(out);
  }
  if (config.mem_limit_gb > 0) {
    rlimit lim;
    lim.rlim_cur = lim.rlim_max =
        static_cast<rlim_t>(config.mem_limit_gb * 1024.0 * 1024.0 * 1024.0);
    setrlimit(RLIMIT_AS, &lim);
  }
}

WireResult SolveWithSiconos(const fcsn::GlobalProblem& problem,
                            const SolverSpec& spec,
                            const RunConfig& config,
                            const std::function<void()>& on_start,
                            Eigen::VectorXd* v,
                            Eigen::VectorXd* r) {
  WireResult w;
  SiconosResult res;
  RunSiconos(problem,
             spec.siconos_method,
             config.tolerance * config.siconos_tol_factor,
             config.siconos_max_iterations,
             on_start,
             v,
             r,
             &res);
  w.seconds = res.seconds;
  w.cpu_seconds = res.cpu_seconds;
  w.iterations = res.iterations;
  w.info = res.info;
  w.own_error = res.own_error;
  std::snprintf(w.status,
                sizeof(w.status),
                "%s",
                res.info == 0 ? "siconos-converged" : "siconos-failed");
  return w;
}

WireResult SolveWithFcsn(const fcsn::GlobalProblem& problem,
                         const SolverSpec& spec,
                         const RunConfig& config,
                         const std::function<void()>& on_start,
                         Eigen::VectorXd* v,
                         Eigen::VectorXd* r) {
  WireResult w;
  fcsn::SolverOptions options = FcsnOptions(spec.fcsn_kind);
  options.tolerance = config.tolerance;
  options.time_limit_seconds = config.time_limit;
  fcsn::Solver solver(options);
  fcsn::Solution solution;
  on_start();
  const double c0 = CpuSeconds();
  const auto t0 = Clock::now();
  const fcsn::SolverSummary s = solver.Solve(problem, nullptr, &solution);
  const auto t1 = Clock::now();
  w.cpu_seconds = CpuSeconds() - c0;
  w.seconds = std::chrono::duration<double>(t1 - t0).count();
  w.iterations = s.iterations;
  w.nsgs_sweeps = s.nsgs_sweeps;
  w.info = static_cast<int>(s.status);
  w.own_error = s.siconos_error;
  w.t_total = s.timings.total;
  w.t_factorization = s.timings.factorization;
  w.t_analysis = s.timings.analysis;
  w.factorizations = s.factorizations;
  std::snprintf(w.status, sizeof(w.status), "%s", fcsn::ToString(s.status));
  *v = solution.v;
  *r = solution.r;
  return w;
}

[[noreturn]] void ChildMain(int fd,
                            const fcsn::GlobalProblem& problem,
                            const SolverSpec& spec,
                            const RunConfig& config) {
  RedirectOutputAndLimitMemory(config);
  auto on_start = [fd]() {
    const char s = 'S';
    WriteAll(fd, &s, 1);
  };
  Eigen::VectorXd v, r;
  WireResult w = spec.family == Family::kSiconos
                     ? SolveWithSiconos(problem, spec, config, on_start, &v, &r)
                     : SolveWithFcsn(problem, spec, config, on_start, &v, &r);
  if (v.size() != problem.n()) v = Eigen::VectorXd::Constant(problem.n(), NAN);
  if (r.size() != problem.m()) r = Eigen::VectorXd::Constant(problem.m(), NAN);
  w.n = static_cast<int>(v.size());
  w.m = static_cast<int>(r.size());
  bool ok = WriteAll(fd, &w, sizeof(w)) &&
            WriteAll(fd, v.data(), sizeof(double) * v.size()) &&
            WriteAll(fd, r.data(), sizeof(double) * r.size());
  close(fd);
  _exit(ok ? 0 : 3);
}

// Replaces the forked process by this program in child mode; the pipe's
// write end `fd` stays open across the exec.
[[noreturn]] void ExecChild(int fd,
                            const SolverSpec& spec,
                            const RunConfig& config) {
  auto number = [](double x) {
    char text[32];
    std::snprintf(text, sizeof(text), "%.17g", x);
    return std::string(text);
  };
  std::vector<std::string> args = {
      "compare_siconos",
      kChildFlag,
      std::to_string(fd),
      config.file,
      config.m_storage,
      spec.name,
      number(config.tolerance),
      number(config.time_limit),
      std::to_string(config.siconos_max_iterations),
      number(config.siconos_tol_factor),
      number(config.mem_limit_gb),
      config.log_path};
  std::vector<char*> argv;
  for (std::string& a : args) argv.push_back(a.data());
  argv.push_back(nullptr);
  execv("/proc/self/exe", argv.data());
  _exit(127);
}

// ---------------------------------------------------------------- parent

// What the parent collected from one child.
struct ChildOutput {
  std::vector<char> buffer;  // 'S', then the WireResult, v and r
  bool started = false;      // the child sent 'S'
  bool killed = false;       // past its deadline: SIGKILL
  int wstatus = 0;           // waitpid's status
};

// Reads the child's pipe until EOF or the deadline, then reaps the child.
// Setup (building the solver's data) gets a generous fixed budget; the time
// limit starts when the child says the solve has started. A small grace lets
// fcsn return its own time-limit status instead of being killed.
ChildOutput CollectChild(pid_t pid, int fd, double time_limit) {
  ChildOutput out;
  const auto setup_deadline = Clock::now() + std::chrono::seconds(600);
  const auto grace = std::chrono::duration<double>(0.1 * time_limit + 2);
  Clock::time_point deadline = setup_deadline;
  char chunk[1 << 16];
  while (true) {
    const double left =
        std::chrono::duration<double>(deadline - Clock::now()).count();
    if (left <= 0) {
      kill(pid, SIGKILL);
      out.killed = true;
      break;
    }
    pollfd pfd{fd, POLLIN, 0};
    const int pr =
        poll(&pfd, 1, static_cast<int>(std::min(left, 1.0) * 1000) + 1);
    if (pr < 0 && errno != EINTR) break;
    if (pr <= 0) continue;
    const ssize_t k = read(fd, chunk, sizeof(chunk));
    if (k < 0 && errno == EINTR) continue;
    if (k <= 0) break;  // EOF: child done (or died)
    out.buffer.insert(out.buffer.end(), chunk, chunk + k);
    if (!out.started && !out.buffer.empty()) {
      out.started = true;
      deadline =
          Clock::now() + std::chrono::duration_cast<Clock::duration>(
                             std::chrono::duration<double>(time_limit) + grace);
    }
  }
  close(fd);
  waitpid(pid, &out.wstatus, 0);
  return out;
}

std::string CrashStatus(int wstatus) {
  std::ostringstream s;
  if (WIFSIGNALED(wstatus)) {
    s << "crash: signal " << WTERMSIG(wstatus) << " ("
      << strsignal(WTERMSIG(wstatus)) << ")";
  } else {
    s << "crash: exit " << WEXITSTATUS(wstatus);
  }
  return s.str();
}

// The record's counters, and fcsn's judge of the returned (v, r).
RepResult Judge(const WireResult& w,
                const Eigen::VectorXd& v,
                const Eigen::VectorXd& r,
                const fcsn::GlobalProblem& problem,
                const RunConfig& config) {
  RepResult out;
  out.completed = true;
  out.seconds = w.seconds;
  out.cpu_seconds = w.cpu_seconds;
  out.iterations = w.iterations;
  out.nsgs_sweeps = w.nsgs_sweeps;
  out.own_error = w.own_error;
  out.t_total = w.t_total;
  out.t_factorization = w.t_factorization;
  out.t_analysis = w.t_analysis;
  out.status = w.status;
  out.self_converged =
      out.status == "siconos-converged" ||
      out.status == fcsn::ToString(fcsn::SolverStatus::kConverged);
  const fcsn::ErrorMeasures e = fcsn::ComputeErrorMeasures(problem, v, r);
  out.error = e.Worst();
  out.e_nat = e.e_nat;
  out.e_eq = e.e_eq;
  out.siconos_measure = e.siconos_error;
  out.timeout = w.seconds > config.time_limit || out.status == "time-limit";
  if (out.timeout) out.status = "timeout";
  out.solved = !out.timeout && e.Converged(config.tolerance);
  return out;
}

// Decodes a child's output into a RepResult: timeout, crash, or judged point.
RepResult Decode(const ChildOutput& child,
                 const fcsn::GlobalProblem& problem,
                 const RunConfig& config) {
  RepResult out;
  const std::vector<char>& buffer = child.buffer;
  const size_t header = 1 + sizeof(WireResult);
  if (child.killed) {
    out.timeout = child.started;
    out.status = child.started ? "timeout" : "timeout-in-setup";
    out.seconds = config.time_limit;
    return out;
  }
  if (buffer.size() < header) {
    out.status = CrashStatus(child.wstatus);
    return out;
  }
  WireResult w;
  std::memcpy(&w, buffer.data() + 1, sizeof(w));
  const size_t need = header + sizeof(double) * (w.n + w.m);
  if (w.n != problem.n() || w.m != problem.m() || buffer.size() < need) {
    out.status = "crash: truncated result";
    return out;
  }
  Eigen::VectorXd v(w.n), r(w.m);
  std::memcpy(v.data(), buffer.data() + header, sizeof(double) * w.n);
  std::memcpy(r.data(),
              buffer.data() + header + sizeof(double) * w.n,
              sizeof(double) * w.m);
  return Judge(w, v, r, problem, config);
}

}  // namespace

void ChildEntry(int argc, char** argv) {
  constexpr int kArguments = 12;
  const SolverSpec* spec = argc == kArguments ? FindSolver(argv[5]) : nullptr;
  const auto storage =
      argc == kArguments ? fcsn::MStorageFromString(argv[4]) : std::nullopt;
  if (spec == nullptr || !storage) {
    std::fprintf(stderr, "compare_siconos: bad child command line\n");
    _exit(4);
  }
  RunConfig config;
  config.file = argv[3];
  config.m_storage = argv[4];
  config.tolerance = std::strtod(argv[6], nullptr);
  config.time_limit = std::strtod(argv[7], nullptr);
  config.siconos_max_iterations = std::atoi(argv[8]);
  config.siconos_tol_factor = std::strtod(argv[9], nullptr);
  config.mem_limit_gb = std::strtod(argv[10], nullptr);
  config.log_path = argv[11];
  fcsn::ReadOptions read_options;
  read_options.m_storage = *storage;
  fcsn::GlobalProblem problem;
  fcsn::FclibFileInfo info;
  std::string error;
  if (!fcsn::ReadGlobalProblem(
          config.file, read_options, &problem, &info, &error)) {
    std::fprintf(stderr, "compare_siconos: %s\n", error.c_str());
    _exit(5);
  }
  ChildMain(std::atoi(argv[2]), problem, *spec, config);
}

RepResult RunOnce(const fcsn::GlobalProblem& problem,
                  const SolverSpec& spec,
                  const RunConfig& config) {
  RepResult out;
  int fds[2];
  if (pipe(fds) != 0) {
    out.status = "error: pipe";
    return out;
  }
  std::fflush(stdout);
  std::fflush(stderr);
  const pid_t pid = fork();
  if (pid < 0) {
    close(fds[0]);
    close(fds[1]);
    out.status = "error: fork";
    return out;
  }
  if (pid == 0) {
    close(fds[0]);
    ExecChild(fds[1], spec, config);
  }
  close(fds[1]);
  const ChildOutput child = CollectChild(pid, fds[0], config.time_limit);
  return Decode(child, problem, config);
}

}  // namespace fcsn_bench
