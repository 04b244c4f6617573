// The Solver, read_fclib, write_fclib and the warm-start helpers of
// fcsn/time_stepping.h of the Python module.
//
// Inputs: each matrix arrives as (format, rows, cols, data, a, b) with
// format "csc"/"csr" (a = indices, b = indptr) or "coo" (a = row, b = col),
// data a contiguous float64 array and a, b contiguous int32 or int64 arrays
// (python/fcsn/__init__.py prepares them from scipy.sparse or numpy without
// copying when they already are so). The arrays are viewed, not copied, by a
// fcsn::SparseView; the ProblemViewConverter then fills the solver's own CSC
// copy (values only, when the pattern is that of the previous solve). Array
// lengths are checked here, against the sizes the view claims, before the
// converter reads anything. Outputs (v, u, r, the matrices of read_fclib) are
// handed to numpy without a copy (the arrays own the C++ buffers).
//
// Every invalid input raises ValueError with the library's one-line message.
//
// Solves and setups run with the GIL released: other Python threads go on
// meanwhile, and the iteration callback and the log take the GIL for their
// calls into Python. Ctrl-C raises the solve's stop flag (SolverOptions::stop)
// in two ways: an InterruptWatch (interrupt_watch.h) notices SIGINT at once,
// also during the setup, when Python's default handler is in place; a
// SignalPoll, in the iteration-callback slot of the solver's options, runs
// the Python handlers of pending signals at every iterate. When the solve
// returns, the handler's exception (KeyboardInterrupt) is raised with the
// best point attached (python/fcsn: exc.result).
#include <pybind11/numpy.h>
#include <pybind11/pybind11.h>
#include <pybind11/stl.h>

#include <atomic>
#include <cstdint>
#include <exception>
#include <memory>
#include <mutex>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

#include "fcsn/contact_status.h"
#include "fcsn/error_measures.h"
#include "fcsn/fclib_io.h"
#include "fcsn/problem.h"
#include "fcsn/problem_view.h"
#include "fcsn/solver.h"
#include "fcsn/time_stepping.h"
#include "python/src/arrays.h"
#include "python/src/bindings.h"
#include "python/src/interrupt_watch.h"

namespace fcsn::python {
namespace {

namespace py = pybind11;

// The solver's iteration callback: runs the Python handlers of pending
// signals (with the GIL, on the thread of the solve: Python runs them on its
// main thread only), then the user's callback. An exception from a handler
// is kept in *error and raises *stop, the solve's SolverOptions::stop.
struct SignalPoll {
  std::function<CallbackResult(const IterationRecord&)> user;
  std::atomic<bool>* stop;
  std::shared_ptr<std::exception_ptr> error;

  CallbackResult operator()(const IterationRecord& record) const {
    {
      py::gil_scoped_acquire gil;
      if (!*error && PyErr_CheckSignals() != 0) {
        *error = std::make_exception_ptr(py::error_already_set());
        stop->store(true);
        return CallbackResult::kContinue;  // the stop ends the solve
      }
    }
    return user ? user(record) : CallbackResult::kContinue;
  }
};

// fcsn.Solver's C++ part: the solver (analysis kept), the converter (pattern
// kept) and the problem copy they work on.
class PySolver {
 public:
  explicit PySolver(const SolverOptions& options)
      : options_(options), solver_(Polled(options)) {
    CheckOptions(options);
  }

  const SolverOptions& options() const { return options_; }
  void set_options(const SolverOptions& options) {
    CheckOptions(options);
    Busy busy(this);
    solver_.set_options(Polled(options));
    options_ = options;
  }

  // Solver::RequestStop: callable from any thread, also during a solve.
  void RequestStop() { solver_.RequestStop(); }
  int pattern_rebuilds() const { return converter_.rebuilds(); }

  // Solver::Setup on the problem's patterns; invalid input raises, like a
  // solve's.
  SetupSummary Setup(const py::tuple& M,
                     const py::tuple& H,
                     const py::array& f,
                     const py::array& w,
                     const py::array& mu,
                     bool m_upper_triangle) {
    Busy busy(this);
    FillProblem(M, H, f, w, mu, m_upper_triangle, &converter_, &problem_);
    SetupSummary summary;
    {
      py::gil_scoped_release release;
      summary = solver_.Setup(problem_);
    }
    Require(summary.status != SetupStatus::kInvalidInput, summary.message);
    return summary;
  }

  // (v, u, r, summary, contact statuses).
  py::tuple Solve(const py::tuple& M,
                  const py::tuple& H,
                  const py::array& f,
                  const py::array& w,
                  const py::array& mu,
                  bool m_upper_triangle,
                  const py::object& v0,
                  const py::object& r0) {
    Busy busy(this);
    FillProblem(M, H, f, w, mu, m_upper_triangle, &converter_, &problem_);
    const bool has_guess = !v0.is_none() || !r0.is_none();
    if (has_guess) {
      Require(!v0.is_none() && !r0.is_none(), "a guess needs both v and r");
      CopyVector("guess v", v0, problem_.n(), &guess_.v);
      CopyVector("guess r", r0, problem_.m(), &guess_.r);
    }
    Solution x;
    SolverSummary summary;
    interrupted_.store(false);  // a SIGINT seen after the last solve ended
    {
      // Destroyed in reverse: the GIL is back before the watch ends.
      const InterruptWatch watch([this] { interrupted_.store(true); });
      py::gil_scoped_release release;
      summary = solver_.Solve(problem_, has_guess ? &guess_ : nullptr, &x);
    }
    RunSignalHandlers();
    const std::exception_ptr error = TakePythonError();
    // Rejected input has no point to attach (x is empty).
    const bool rejected = summary.status == SolverStatus::kInvalidInput;
    if (error && rejected) std::rethrow_exception(error);
    Require(!rejected, summary.message);
    ContactStatusScales scales;
    scales.tolerance = solver_.options().tolerance;
    scales.velocity_floor = summary.velocity_floor;
    if (!ClassifySolution(problem_, x, scales, &statuses_))
      statuses_.assign(problem_.nc(), ContactStatus::kTakeOff);
    py::list statuses;
    for (ContactStatus s : statuses_) statuses.append(ToString(s));
    py::tuple result = py::make_tuple(ToNumpy(std::move(x.v)),
                                      ToNumpy(std::move(x.u)),
                                      ToNumpy(std::move(x.r)),
                                      std::move(summary),
                                      statuses);
    if (error) RaiseWithResult(error, result);
    return result;
  }

 private:
  // The solver is not re-entrant: a second Python thread using it while the
  // GIL is released for a solve, or a callback changing its options, gets
  // RuntimeError instead of a data race.
  class Busy {
   public:
    explicit Busy(PySolver* owner) : lock_(owner->busy_, std::try_to_lock) {
      if (!lock_.owns_lock()) {
        throw std::runtime_error(
            "this fcsn.Solver is running a solve (one call at a time per "
            "Solver: use one Solver per thread)");
      }
    }

   private:
    std::unique_lock<std::mutex> lock_;
  };

  SolverOptions Polled(const SolverOptions& options) {
    SolverOptions polled = options;
    polled.stop = &interrupted_;
    polled.iteration_callback =
        SignalPoll{options.iteration_callback, &interrupted_, signal_error_};
    return polled;
  }

  // The Python handlers of the signals that arrived during the solve (the
  // InterruptWatch saw SIGINT, or one came after the last iterate): their
  // exception is the solve's.
  void RunSignalHandlers() {
    if (!*signal_error_ && PyErr_CheckSignals() != 0)
      *signal_error_ = std::make_exception_ptr(py::error_already_set());
  }

  // The first Python exception of the last solve, cleared: a signal
  // handler's (Ctrl-C), the iteration callback's, the log's.
  std::exception_ptr TakePythonError() {
    std::exception_ptr error;
    std::swap(error, *signal_error_);
    const auto take = [&error](std::exception_ptr* pending) {
      if (!error) error = *pending;
      *pending = nullptr;
    };
    if (const auto* c = options_.iteration_callback.target<PythonCallback>())
      take(&c->state->error);
    if (const auto* log = options_.log.target<PythonLog>())
      take(&log->state->error);
    return error;
  }

  // Raises error with the solve's (v, u, r, summary, statuses) attached as
  // the exception's _fcsn_parts (python/fcsn makes it exc.result).
  [[noreturn]] static void RaiseWithResult(const std::exception_ptr& error,
                                           const py::tuple& result) {
    try {
      std::rethrow_exception(error);
    } catch (py::error_already_set& e) {
      e.value().attr("_fcsn_parts") = result;
      throw;
    }
  }

  static void CheckOptions(const SolverOptions& options) {
    const std::string why = options.Validate();
    Require(why.empty(), why);
  }

  SolverOptions options_;  // as given: without the SignalPoll
  // Before solver_, whose options point at them (SignalPoll, stop).
  std::shared_ptr<std::exception_ptr> signal_error_ =
      std::make_shared<std::exception_ptr>();
  std::atomic<bool> interrupted_{false};  // Ctrl-C: the solve's stop flag
  Solver solver_;
  std::mutex busy_;
  ProblemViewConverter converter_;
  GlobalProblem problem_;
  Solution guess_;
  std::vector<ContactStatus> statuses_;
};

// fcsn.check's C++ part: the criterion's measures at (v, r), with a
// factorization of M of their own (fcsn/error_measures.h).
py::dict Check(const py::tuple& M,
               const py::tuple& H,
               const py::array& f,
               const py::array& w,
               const py::array& mu,
               bool m_upper_triangle,
               const py::object& v,
               const py::object& r) {
  ProblemViewConverter converter;
  GlobalProblem problem;
  FillProblem(M, H, f, w, mu, m_upper_triangle, &converter, &problem);
  Eigen::VectorXd v_copy, r_copy;
  CopyVector("v", v, problem.n(), &v_copy);
  CopyVector("r", r, problem.m(), &r_copy);
  const ErrorMeasures e = ComputeErrorMeasures(problem, v_copy, r_copy);
  py::dict out;
  out["e_cone"] = e.e_cone;
  out["e_dual"] = e.e_dual;
  out["e_comp"] = e.e_comp;
  out["e_eq"] = e.e_eq;
  out["error"] = e.Worst();
  out["velocity_scale"] = e.velocity_scale;
  out["velocity_floor"] = e.velocity_floor;
  out["floor_from_diagonal"] = e.floor_from_diagonal;
  out["e_nat"] = e.e_nat;
  out["siconos_error"] = e.siconos_error;
  return out;
}

py::object SolutionTuple(Solution&& s, const GlobalProblem& p) {
  if (s.u.size() == 0) s.u = p.H.transpose() * s.v + p.w;
  return py::make_tuple(ToNumpy(std::move(s.v)),
                        ToNumpy(std::move(s.u)),
                        ToNumpy(std::move(s.r)));
}

// Reads path into a dict: M, H as (data, indices, indptr, shape); f, w, mu;
// solution (v, u, r) or None; guesses [(v, u, r)]; info strings.
py::dict ReadFclib(const std::string& path, const std::string& m_storage) {
  ReadOptions options;
  const std::optional<MStorage> storage = MStorageFromString(m_storage);
  Require(storage.has_value(),
          "m_storage = '" + m_storage +
              "' is not one of: " + NamesOf(kAllMStorages));
  options.m_storage = *storage;
  GlobalProblem p;
  FclibFileInfo info;
  std::string error;
  Require(ReadGlobalProblem(path, options, &p, &info, &error), error);
  py::dict out;
  out["solution"] = py::none();
  if (info.has_solution) {
    Solution s;
    Require(ReadSolution(path, p.n(), p.m(), &s, &error), error);
    out["solution"] = SolutionTuple(std::move(s), p);
  }
  std::vector<Solution> guesses;
  Require(ReadGuesses(path, p.n(), p.m(), &guesses, &error), error);
  py::list guess_list;
  for (Solution& g : guesses) guess_list.append(SolutionTuple(std::move(g), p));
  out["guesses"] = guess_list;
  out["m_upper_triangle"] = p.m_upper_triangle;
  out["m_stored_as_upper_triangle"] = info.m_upper_triangular;
  out["title"] = info.title;
  out["description"] = info.description;
  out["M"] = ToScipyParts(std::move(p.M));
  out["H"] = ToScipyParts(std::move(p.H));
  out["f"] = ToNumpy(std::move(p.f));
  out["w"] = ToNumpy(std::move(p.w));
  out["mu"] = ToNumpy(std::move(p.mu));
  return out;
}

// Writes the problem, and solution = (v, u or None, r) when not None, with
// the library's FCLib writer (atomic; u = H^T v + w when None).
void WriteFclib(const std::string& path,
                const py::tuple& M,
                const py::tuple& H,
                const py::array& f,
                const py::array& w,
                const py::array& mu,
                bool m_upper_triangle,
                const py::object& solution,
                const std::string& title,
                const std::string& description) {
  ProblemViewConverter converter;
  GlobalProblem problem;
  FillProblem(M, H, f, w, mu, m_upper_triangle, &converter, &problem);
  Solution s;
  if (!solution.is_none()) {
    const py::tuple parts = solution.cast<py::tuple>();
    Require(parts.size() == 3, "solution must be (v, u, r)");
    CopyVector("solution v", parts[0], problem.n(), &s.v);
    if (!parts[1].is_none()) {
      CopyVector("solution u", parts[1], problem.m(), &s.u);
    }
    CopyVector("solution r", parts[2], problem.m(), &s.r);
  }
  WriteOptions options;
  options.title = title;
  options.description = description;
  std::string error;
  Require(WriteGlobalProblem(path,
                             problem,
                             solution.is_none() ? nullptr : &s,
                             nullptr,
                             &error,
                             options),
          error);
}

// (v, u or None, r) from Python as a Solution; sizes are the caller's to check.
Solution SolutionOf(const std::string& what, const py::tuple& parts) {
  Require(parts.size() == 3, what + " must be (v, u, r)");
  Solution s;
  const auto copy =
      [&](const char* name, const py::handle& x, Eigen::VectorXd* out) {
        const VectorView view =
            Values(what + " " + name, py::reinterpret_borrow<py::array>(x));
        *out = Eigen::Map<const Eigen::VectorXd>(view.data, view.size);
      };
  copy("v", parts[0], &s.v);
  if (!parts[1].is_none()) copy("u", parts[1], &s.u);
  copy("r", parts[2], &s.r);
  return s;
}

py::tuple GuessTuple(Solution&& s) {
  py::object u = py::none();
  if (s.u.size() > 0) u = ToNumpy(std::move(s.u));
  return py::make_tuple(ToNumpy(std::move(s.v)), u, ToNumpy(std::move(s.r)));
}

py::tuple RemapGuess(const std::vector<std::int64_t>& previous_ids,
                     const py::tuple& previous,
                     const std::vector<std::int64_t>& ids) {
  Solution guess;
  const std::string error = RemapContactGuess(
      previous_ids, SolutionOf("previous", previous), ids, &guess);
  Require(error.empty(), error);
  return GuessTuple(std::move(guess));
}

py::tuple Extrapolate(const py::tuple& older, const py::tuple& previous) {
  Solution guess;
  const std::string error = ExtrapolateGuess(
      SolutionOf("older", older), SolutionOf("previous", previous), &guess);
  Require(error.empty(), error);
  return GuessTuple(std::move(guess));
}

}  // namespace

void BindSolver(py::module_& m) {
  py::class_<PySolver>(m,
                       "Solver",
                       "The C++ part of fcsn.Solver, which prepares its "
                       "arguments: use fcsn.Solver.")
      .def(py::init<const SolverOptions&>(),
           py::arg("options"),
           "A solver with these options (ValueError if invalid).")
      // A copy: changes take effect through the setter (Solver::set_options).
      .def_property(
          "options",
          [](const PySolver& s) { return SolverOptions(s.options()); },
          &PySolver::set_options,
          "A copy of the options; assign to change them.")
      .def("request_stop",
           &PySolver::RequestStop,
           "Solver::RequestStop: asks a solve running in another thread to "
           "stop (status 'aborted', best point); thread-safe.")
      .def_property_readonly("pattern_rebuilds",
                             &PySolver::pattern_rebuilds,
                             "Rebuilds of the CSC copy of M and H.")
      .def("setup",
           &PySolver::Setup,
           py::arg("M"),
           py::arg("H"),
           py::arg("f"),
           py::arg("w"),
           py::arg("mu"),
           py::arg("m_upper_triangle"),
           "Solver::Setup: a SetupSummary (see fcsn.Solver.setup).")
      .def("solve",
           &PySolver::Solve,
           py::arg("M"),
           py::arg("H"),
           py::arg("f"),
           py::arg("w"),
           py::arg("mu"),
           py::arg("m_upper_triangle"),
           py::arg("v0"),
           py::arg("r0"),
           "(v, u, r, SolverSummary, contact statuses); see "
           "fcsn.Solver.solve.");
  m.def("read_fclib",
        &ReadFclib,
        py::arg("path"),
        py::arg("m_storage"),
        "The parts of an FCLib file as a dict; see fcsn.read_fclib.");
  m.def("write_fclib",
        &WriteFclib,
        py::arg("path"),
        py::arg("M"),
        py::arg("H"),
        py::arg("f"),
        py::arg("w"),
        py::arg("mu"),
        py::arg("m_upper_triangle"),
        py::arg("solution"),
        py::arg("title"),
        py::arg("description"),
        "The library's FCLib writer; see fcsn.write_fclib.");
  m.def("check",
        &Check,
        py::arg("M"),
        py::arg("H"),
        py::arg("f"),
        py::arg("w"),
        py::arg("mu"),
        py::arg("m_upper_triangle"),
        py::arg("v"),
        py::arg("r"),
        "The criterion's measures at (v, r); see fcsn.check.");
  m.def("remap_contact_guess",
        &RemapGuess,
        py::arg("previous_ids"),
        py::arg("previous"),
        py::arg("ids"),
        "RemapContactGuess (time_stepping.h); see fcsn.remap_contact_guess.");
  m.def("extrapolate_guess",
        &Extrapolate,
        py::arg("older"),
        py::arg("previous"),
        "ExtrapolateGuess (time_stepping.h); see fcsn.extrapolate_guess.");
}

}  // namespace fcsn::python
