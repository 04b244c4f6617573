// make_policy_problems: writes the generated problems of bench/default_policy.sh
// as FCLib files, from the generators of the tests (tests/test_problems.h):
//
//   elastic_bar_NXxNYxNZ.hdf5  a stiff elastic lattice bar lying on a rigid
//                              plane, one contact per bottom node (nx * ny),
//                              pulled at 0.8 of the friction limit
//   box_pile_K.hdf5            a pile of K rigid boxes, 4 contacts per
//                              interface, pushed at 0.3 of the friction limit
//
//   make_policy_problems OUTDIR [--bar NX,NY,NZ] [--stiffness K] [--boxes K]
//
// Defaults: a 200 x 10 x 3 bar (2000 contacts, 18000 dofs) of stiffness 1e7
// (h^2 k = 1e3 against unit nodal masses: stiff, so that NSGS contracts
// slowly and W is dense over all 2000 contacts) and a pile of 32 boxes.
#include <cstdio>
#include <cstdlib>
#include <string>

#include "fcsn/fclib_io.h"
#include "test_problems.h"

namespace {

bool Write(const std::string& path,
           const fcsn::GlobalProblem& problem,
           const std::string& description) {
  std::string error;
  fcsn::WriteOptions options;
  options.title = path.substr(path.rfind('/') + 1);
  options.description = description;
  if (!fcsn::WriteGlobalProblem(
          path, problem, nullptr, nullptr, &error, options)) {
    std::fprintf(
        stderr, "make_policy_problems: %s: %s\n", path.c_str(), error.c_str());
    return false;
  }
  std::printf(
      "%s: n %d, contacts %d\n", path.c_str(), problem.n(), problem.nc());
  return true;
}

}  // namespace

int main(int argc, char** argv) {
  if (argc < 2 || std::string(argv[1]) == "-h" ||
      std::string(argv[1]) == "--help") {
    std::fprintf(stderr,
                 "usage: make_policy_problems OUTDIR [--bar NX,NY,NZ] "
                 "[--stiffness K] [--boxes K]\n");
    return 2;
  }
  const std::string out = argv[1];
  int nx = 200, ny = 10, nz = 3, boxes = 32;
  double stiffness = 1e7;
  for (int i = 2; i + 1 < argc; i += 2) {
    const std::string flag = argv[i];
    if (flag == "--bar" &&
        std::sscanf(argv[i + 1], "%d,%d,%d", &nx, &ny, &nz) == 3) {
    } else if (flag == "--stiffness") {
      stiffness = std::atof(argv[i + 1]);
    } else if (flag == "--boxes") {
      boxes = std::atoi(argv[i + 1]);
    } else {
      std::fprintf(
          stderr, "make_policy_problems: bad argument %s\n", flag.c_str());
      return 2;
    }
  }
  const std::string bar = "elastic_bar_" + std::to_string(nx) + "x" +
                          std::to_string(ny) + "x" + std::to_string(nz);
  const bool ok = Write(out + "/" + bar + ".hdf5",
                        fcsn::testing::MakeLatticeOnFloor(
                            nx, ny, nz, 0.5, 0.8, 0.01, stiffness),
                        "elastic lattice bar on a plane, stiffness " +
                            std::to_string(stiffness)) &&
                  Write(out + "/box_pile_" + std::to_string(boxes) + ".hdf5",
                        fcsn::testing::MakeBoxStack(boxes, 0.5, 0.3),
                        "pile of rigid boxes, 4 contacts per interface");
  return ok ? 0 : 1;
}
