// fcsn/build_info.h: what this fcsn was built with and runs on, for bug
// reports and for diagnosing slow dense kernels.
//
// Debian's OpenBLAS picks its kernels from the CPU model and falls back to
// generic SSE3 ones on CPUs it does not know (virtual machines among them);
// MUMPS and CHOLMOD then factorize ~1.5x slower (README, "BLAS kernels").
// BuildInfo::blas_kernel_below_cpu flags that case; OPENBLAS_CORETYPE set
// before the process starts cures it.
#ifndef FCSN_BUILD_INFO_H_
#define FCSN_BUILD_INFO_H_

#include <string>

namespace fcsn {

struct BuildInfo {
  std::string version;        // fcsn's, e.g. "0.1.0" (FCSN_VERSION)
  std::string mumps_version;  // of the MUMPS headers fcsn was built with
  std::string mumps_flavor;   // "seq" or "mpi" (FCSN_MUMPS_FLAVOR)
  // The loaded OpenBLAS (looked up at run time, so the one MUMPS calls): its
  // configuration string (e.g. "OpenBLAS 0.3.21 DYNAMIC_ARCH ..."), kernel
  // family (e.g. "Haswell", "SkylakeX", "Prescott") and the threads it uses
  // now. Empty and 0 when the BLAS is not OpenBLAS.
  std::string blas;
  std::string blas_kernel;
  int blas_threads = 0;
  // True when the CPU has AVX2 and FMA but OpenBLAS runs kernels without
  // them (e.g. its SSE3 fallback): set OPENBLAS_CORETYPE (Haswell, or
  // SkylakeX on CPUs with AVX-512) before starting the process.
  bool blas_kernel_below_cpu = false;
};

// Reads the above; never fails (unknown parts are left empty).
BuildInfo GetBuildInfo();

}  // namespace fcsn

#endif  // FCSN_BUILD_INFO_H_
