// sliding_block: fcsn driven by a finite-element code that is not fcsn's own.
//
// GetFEM (block_model.h) meshes an elastic box lying on the rigid plane z = 0
// and assembles its mass M, stiffness K, gravity and a tangential push on the
// face x = 0; fcsn steps it with the theta-method of fcsn::MoreauJean
// (theta = 1: the gap law then forbids penetration at the end of each step,
// fcsn/time_stepping.h) and one fcsn::Solver kept across the steps, so the
// analysis of the Newton matrix is done once and each step starts from the
// previous step's solution. Gravity acts from t = 0 on a block at rest, so
// the first steps settle it (it spreads sideways and a few contacts slip);
// the push grows linearly from 0 to twice the friction capacity mu * weight:
// the contacts stick, then slip spreads from the pushed side until the whole
// block slides in +x.
//
// Usage: sliding_block [--steps N] [--cells NX] [--h H] [--vtk DIR]
//                      [--vtk-every K]
//   --cells NX  NX x NX/2 x NX/4 hexahedra (at least 1 each way; default 8)
//   --vtk DIR   writes DIR/block_NNNN.vtk (GetFEM's exporter) every K steps
//               and at the last one; DIR is created if missing. Without it
//               nothing is written.
// Prints one line per step (status, Newton iterations, stick/slip/take-off
// counts, mean sliding velocity of the bottom nodes). Exit status: 0 when
// every step converged and the block slides at the end, 1 otherwise, 2 for
// bad arguments.
#include <Eigen/Core>
#include <cstdio>
#include <cstdlib>
#include <exception>
#include <filesystem>
#include <string>
#include <vector>

#include "block_model.h"
#include "fcsn/fcsn.h"

namespace {

struct RunOptions {
  int steps = 40;
  int cells = 8;
  double h = 1e-3;  // s
  double mu = 0.3;
  std::string vtk_dir;  // empty: no output files
  int vtk_every = 10;
};

// Parses argv into *run; "" on success, else the message for stderr.
std::string ParseArguments(int argc, char** argv, RunOptions* run) {
  for (int i = 1; i < argc; ++i) {
    const std::string flag = argv[i];
    if (flag == "--help")
      return "usage: sliding_block [--steps N] [--cells NX] [--h H] "
             "[--vtk DIR] [--vtk-every K]";
    if (i + 1 >= argc) return flag + " needs a value (see --help)";
    const char* value = argv[++i];
    char* end = nullptr;
    if (flag == "--vtk") {
      run->vtk_dir = value;
      continue;
    }
    const double number = std::strtod(value, &end);
    if (end == value || *end != '\0')
      return flag + ": '" + value + "' is not a number";
    if (flag == "--steps") {
      run->steps = static_cast<int>(number);
    } else if (flag == "--cells") {
      run->cells = static_cast<int>(number);
    } else if (flag == "--h") {
      run->h = number;
    } else if (flag == "--vtk-every") {
      run->vtk_every = static_cast<int>(number);
    } else {
      return "unknown option " + flag + " (see --help)";
    }
  }
  if (run->steps < 1 || run->cells < 1 || run->vtk_every < 1 ||
      !(run->h > 0.0)) {
    return "--steps, --cells and --vtk-every must be >= 1 and --h > 0";
  }
  return "";
}

struct StepCounts {
  int stick = 0, slip = 0, take_off = 0;
};

StepCounts Count(const std::vector<fcsn::ContactResult>& contacts) {
  StepCounts counts;
  for (const fcsn::ContactResult& c : contacts) {
    if (c.status == fcsn::ContactStatus::kStick) ++counts.stick;
    if (c.status == fcsn::ContactStatus::kSlip) ++counts.slip;
    if (c.status == fcsn::ContactStatus::kTakeOff) ++counts.take_off;
  }
  return counts;
}

double MeanContactVelocityX(const getfem_block::BlockModel& model,
                            const Eigen::VectorXd& v) {
  double sum = 0.0;
  for (int a = 0; a < model.contacts(); ++a) sum += v[model.contact_x_dof(a)];
  return sum / model.contacts();
}

bool WriteStep(const getfem_block::BlockModel& model,
               const RunOptions& run,
               int step,
               const Eigen::VectorXd& q,
               const Eigen::VectorXd& v) {
  if (run.vtk_dir.empty() || (step % run.vtk_every != 0 && step != run.steps))
    return true;
  char name[32];
  std::snprintf(name, sizeof name, "block_%04d.vtk", step);
  const std::string path = (std::filesystem::path(run.vtk_dir) / name).string();
  if (model.WriteVtk(path, q, v)) return true;
  std::fprintf(stderr, "sliding_block: cannot write %s\n", path.c_str());
  return false;
}

// The time loop; returns the exit status.
int Run(const getfem_block::BlockModel& model, const RunOptions& run) {
  fcsn::MoreauJeanOptions time;
  time.h = run.h;
  time.theta = 1.0;
  fcsn::MoreauJean stepper;
  const std::string error =
      stepper.Setup(time, model.mass(), model.stiffness());
  if (!error.empty()) {
    std::fprintf(stderr, "sliding_block: %s\n", error.c_str());
    return 1;
  }
  fcsn::GlobalProblem problem;
  problem.M = stepper.iteration_matrix();
  problem.H = model.contact_matrix();
  problem.mu = Eigen::VectorXd::Constant(model.contacts(), run.mu);
  fcsn::Solver solver;  // one solver: the analysis of J is kept across steps
  fcsn::Solution x;
  Eigen::VectorXd q = Eigen::VectorXd::Zero(model.dofs()), v = q, impulse;
  std::vector<fcsn::ContactResult> contacts;
  const double capacity = run.mu * model.total_weight();
  int analyses = 0;
  StepCounts counts;
  std::printf(
      "step  push/capacity  status     iter  stick  slip  take-off  mean v_x "
      "(m/s)\n");
  for (int step = 1; step <= run.steps; ++step) {
    const double push_begin = 2.0 * capacity * (step - 1) / run.steps;
    const double push_end = 2.0 * capacity * step / run.steps;
    stepper.ExternalImpulse(model.weight() + push_begin * model.unit_push(),
                            model.weight() + push_end * model.unit_push(),
                            &impulse);
    stepper.FreeTerm(q, v, impulse, &problem.f);
    stepper.GapFreeTerm(problem.H, model.initial_gaps(), q, v, &problem.w);
    // Warm start from the previous step (x; empty at the first step). The
    // linear predictor fcsn::ExtrapolateGuess saved nothing here: the
    // settling under gravity makes the first steps anything but linear.
    const fcsn::SolverSummary summary = solver.Solve(problem, &x, &x);
    analyses += summary.analyses;
    if (!summary.IsConverged()) {
      std::fprintf(stderr,
                   "sliding_block: step %d: %s: %s\n",
                   step,
                   fcsn::ToString(summary.status),
                   summary.message.c_str());
      return 1;
    }
    fcsn::ContactResults(problem, x, &contacts);
    counts = Count(contacts);
    stepper.Advance(x.v, &q, &v);
    std::printf("%4d  %13.2f  %-9s  %4d  %5d  %4d  %8d  %14.3e\n",
                step,
                push_end / capacity,
                fcsn::ToString(summary.status),
                summary.iterations,
                counts.stick,
                counts.slip,
                counts.take_off,
                MeanContactVelocityX(model, v));
    if (!WriteStep(model, run, step, q, v)) return 1;
  }
  if (counts.stick != 0 || counts.slip == 0 ||
      !(MeanContactVelocityX(model, v) > 0.0)) {
    std::fprintf(
        stderr,
        "sliding_block: expected the whole block to slide in +x at the end\n");
    return 1;
  }
  std::printf(
      "sliding_block: %d steps converged, the block slides; %d contacts, %d "
      "dofs, "
      "%d analysis of the Newton matrix\n",
      run.steps,
      model.contacts(),
      model.dofs(),
      analyses);
  return 0;
}

}  // namespace

int main(int argc, char** argv) {
  RunOptions run;
  const std::string usage = ParseArguments(argc, argv, &run);
  if (!usage.empty()) {
    std::fprintf(stderr, "sliding_block: %s\n", usage.c_str());
    return usage.rfind("usage:", 0) == 0 ? 0 : 2;
  }
  try {
    if (!run.vtk_dir.empty()) std::filesystem::create_directories(run.vtk_dir);
    getfem_block::BlockSpec spec;
    spec.cells_x = run.cells;
    spec.cells_y = std::max(1, run.cells / 2);
    spec.cells_z = std::max(1, run.cells / 4);
    const getfem_block::BlockModel model(spec);
    return Run(model, run);
  } catch (const std::exception& e) {
    std::fprintf(stderr, "sliding_block: %s\n", e.what());
    return 1;
  }
}
