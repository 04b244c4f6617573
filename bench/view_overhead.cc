// The cost of the zero-copy input path (include/fcsn/problem_view.h) in a time-stepping run:
// the 688-contact masonry wall (examples/masonry_wall) stepped through fcsn::Solver, each step's
// M and H handed over as caller-owned arrays in three layouts (CSC int32 0-based, CSR int64
// 1-based, COO int32 0-based) and filled by one ProblemViewConverter per layout into the
// problem the solver gets. Prints, per layout, the total Fill time as a share of the total solve
// time (target: <= 2 %), and checks that every layout gives the iterations of the direct path.
//   view_overhead [--steps N]      default 30 (the gravity phase and the start of the shear)
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>

#include "fcsn/problem_view.h"
#include "fcsn/solver.h"
#include "masonry_wall_model.h"

namespace {

using Clock = std::chrono::steady_clock;

double Seconds(Clock::time_point start) {
  return std::chrono::duration<double>(Clock::now() - start).count();
}

// The caller's own arrays for one matrix in one layout (built outside the timed region: a FEM
// code already holds them).
struct CallerMatrix {
  std::vector<std::int32_t> ptr32, index32, col32;
  std::vector<std::int64_t> ptr64, index64;
  std::vector<double> values;
  fcsn::SparseView view;
};

void MakeCaller(const fcsn::SparseMatrix& A,
                fcsn::SparseFormat format,
                CallerMatrix* c) {
  if (format == fcsn::SparseFormat::kCsc) {
    c->ptr32.assign(A.outerIndexPtr(), A.outerIndexPtr() + A.cols() + 1);
    c->index32.assign(A.innerIndexPtr(), A.innerIndexPtr() + A.nonZeros());
    c->values.assign(A.valuePtr(), A.valuePtr() + A.nonZeros());
    c->view = fcsn::CscView(A.rows(),
                            A.cols(),
                            c->ptr32.data(),
                            c->index32.data(),
                            c->values.data(),
                            0);
  } else if (format == fcsn::SparseFormat::kCsr) {
    const Eigen::SparseMatrix<double, Eigen::RowMajor, int> R = A;
    c->ptr64.assign(R.outerIndexPtr(), R.outerIndexPtr() + R.rows() + 1);
    c->index64.assign(R.innerIndexPtr(), R.innerIndexPtr() + R.nonZeros());
    for (auto& x : c->ptr64) ++x;
    for (auto& x : c->index64) ++x;
    c->values.assign(R.valuePtr(), R.valuePtr() + R.nonZeros());
    c->view = fcsn::CsrView(R.rows(),
                            R.cols(),
                            c->ptr64.data(),
                            c->index64.data(),
                            c->values.data(),
                            1);
  } else {
    c->index32.clear();
    c->col32.clear();
    c->values.clear();
    for (int j = 0; j < A.outerSize(); ++j)
      for (fcsn::SparseMatrix::InnerIterator it(A, j); it; ++it) {
        c->index32.push_back(it.row());
        c->col32.push_back(j);
        c->values.push_back(it.value());
      }
    c->view = fcsn::CooView(A.rows(),
                            A.cols(),
                            static_cast<std::int64_t>(c->values.size()),
                            c->index32.data(),
                            c->col32.data(),
                            c->values.data(),
                            0);
  }
}

struct Lane {
  fcsn::SparseFormat format;
  fcsn::ProblemViewConverter converter;
  fcsn::GlobalProblem problem;
  fcsn::Solver solver;
  fcsn::Solution x;
  double fill_seconds = 0, solve_seconds = 0;
  int iterations = 0;
};

// The direct path: the solver gets the GlobalProblem itself.
struct Direct {
  fcsn::Solver solver;
  fcsn::Solution x;
  double seconds = 0;
  int iterations = 0;
};

std::vector<Lane> MakeLanes() {
  std::vector<Lane> lanes(3);
  lanes[0].format = fcsn::SparseFormat::kCsc;
  lanes[1].format = fcsn::SparseFormat::kCsr;
  lanes[2].format = fcsn::SparseFormat::kCoo;
  return lanes;
}

// One step on one lane: the caller's arrays in the lane's layout (untimed),
// the timed Fill and the timed warm-started solve. Counts a mismatch when
// the iterations or the status differ from the direct path's. False (after a
// message) if Fill rejects the view.
bool RunLane(const fcsn::GlobalProblem& problem,
             const fcsn::SolverSummary& direct,
             Lane* lane,
             int* mismatches) {
  CallerMatrix M, H;
  MakeCaller(problem.M, lane->format, &M);
  MakeCaller(problem.H, lane->format, &H);
  fcsn::GlobalProblemView view;
  view.M = M.view;
  view.H = H.view;
  view.f = {problem.f.data(), problem.f.size()};
  view.w = {problem.w.data(), problem.w.size()};
  view.mu = {problem.mu.data(), problem.mu.size()};
  auto start = Clock::now();
  const std::string message = lane->converter.Fill(view, &lane->problem);
  lane->fill_seconds += Seconds(start);
  if (!message.empty()) {
    std::fprintf(stderr, "view_overhead: %s\n", message.c_str());
    return false;
  }
  start = Clock::now();
  const fcsn::SolverSummary s =
      lane->solver.Solve(lane->problem, &lane->x, &lane->x);
  lane->solve_seconds += Seconds(start);
  lane->iterations += s.iterations;
  if (s.iterations != direct.iterations || s.status != direct.status)
    ++*mismatches;
  return true;
}

void PrintReport(int steps,
                 const fcsn::GlobalProblem& problem,
                 const Direct& direct,
                 const std::vector<Lane>& lanes,
                 int mismatches) {
  std::printf(
      "masonry wall, %d steps, nc = %d, n = %d: direct path %.3f s, %d "
      "iterations\n",
      steps,
      problem.nc(),
      problem.n(),
      direct.seconds,
      direct.iterations);
  std::printf("%-4s %10s %10s %10s %8s %9s\n",
              "view",
              "fill (s)",
              "solve (s)",
              "fill/solve",
              "rebuilds",
              "iterations");
  for (const Lane& lane : lanes) {
    std::printf("%-4s %10.4f %10.3f %9.2f%% %8d %9d\n",
                fcsn::ToString(lane.format),
                lane.fill_seconds,
                lane.solve_seconds,
                100.0 * lane.fill_seconds / lane.solve_seconds,
                lane.converter.rebuilds(),
                lane.iterations);
  }
  std::printf(
      "steps whose iterations or status differ from the direct path: %d\n",
      mismatches);
}

}  // namespace

int main(int argc, char** argv) {
  int steps = 30;
  for (int k = 1; k + 1 < argc; ++k)
    if (std::strcmp(argv[k], "--steps") == 0) steps = std::atoi(argv[k + 1]);
  std::string error;
  auto wall =
      fcsn::masonry::MasonryWall::Create(fcsn::masonry::WallOptions(), &error);
  if (!wall) {
    std::fprintf(stderr, "view_overhead: %s\n", error.c_str());
    return 2;
  }
  std::vector<Lane> lanes = MakeLanes();
  Direct direct;
  int mismatches = 0;
  fcsn::GlobalProblem problem;
  for (int k = 1; k <= steps; ++k) {
    wall->BuildStepProblem(&problem);
    const auto start = Clock::now();
    const fcsn::SolverSummary s =
        direct.solver.Solve(problem, &direct.x, &direct.x);
    direct.seconds += Seconds(start);
    direct.iterations += s.iterations;
    for (Lane& lane : lanes) {
      if (!RunLane(problem, s, &lane, &mismatches)) return 1;
    }
    if (!wall->Advance(direct.x, &error)) {
      std::fprintf(stderr, "view_overhead: step %d: %s\n", k, error.c_str());
      return 1;
    }
  }
  PrintReport(steps, problem, direct, lanes, mismatches);
  return mismatches == 0 ? 0 : 1;
}
