// `fcsn --version`: what this fcsn was built with and the BLAS it runs on.
#include <sstream>
#include <string>

#include "cli/commands.h"
#include "fcsn/build_info.h"

namespace fcsn::cli {
namespace {

std::string VersionText() {
  const BuildInfo info = GetBuildInfo();
  std::ostringstream out;
  out << "fcsn " << info.version << "\n";
  out << "MUMPS: " << info.mumps_version << " (" << info.mumps_flavor << ")\n";
  if (info.blas.empty()) {
    out << "BLAS:  not OpenBLAS (no kernel or thread report)\n";
  } else {
    out << "BLAS:  " << info.blas << "; kernels " << info.blas_kernel << ", "
        << info.blas_threads << " thread" << (info.blas_threads == 1 ? "" : "s")
        << "\n";
  }
  if (info.blas_kernel_below_cpu) {
    out << "note:  the CPU has AVX2 and FMA but OpenBLAS runs its "
        << info.blas_kernel
        << " kernels (factorizations ~1.5x slower): set OPENBLAS_CORETYPE "
           "(Haswell, or SkylakeX with AVX-512) before starting fcsn, see "
           "README \"BLAS kernels\"\n";
  }
  std::string text = out.str();
  text.pop_back();  // CLI11 adds the last line break
  return text;
}

}  // namespace

void RegisterVersionFlag(CLI::App& app) {
  app.set_version_flag("--version", VersionText);
}

}  // namespace fcsn::cli
