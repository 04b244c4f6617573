// fcsn::GetBuildInfo (include/fcsn/build_info.h): versions from the build,
// the BLAS from the running process.
#include "fcsn/build_info.h"

#include <dmumps_c.h>

#include <algorithm>
#include <array>
#include <cctype>
#include <string>
#include <string_view>

#include "fcsn/config.h"
#include "linalg/blas_threads.h"

namespace fcsn {
namespace {

// OpenBLAS kernel families (openblas_get_corename(), lower case in 0.3.21)
// that use AVX2 and FMA. Any other family on a CPU with both is a fallback:
// the generic SSE3 "prescott" of an unknown CPU model, or an older family.
bool UsesAvx2(std::string kernel) {
  std::transform(kernel.begin(), kernel.end(), kernel.begin(), [](char c) {
    return static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  });
  constexpr std::array<std::string_view, 6> kAvx2Kernels = {"haswell",
                                                            "zen",
                                                            "skylakex",
                                                            "cooperlake",
                                                            "sapphirerapids",
                                                            "excavator"};
  return std::find(kAvx2Kernels.begin(), kAvx2Kernels.end(), kernel) !=
         kAvx2Kernels.end();
}

bool CpuHasAvx2Fma() {
#if defined(__x86_64__) || defined(__i386__)
  __builtin_cpu_init();
  return __builtin_cpu_supports("avx2") && __builtin_cpu_supports("fma");
#else
  return false;
#endif
}

}  // namespace

BuildInfo GetBuildInfo() {
  BuildInfo info;
  info.version = FCSN_VERSION;
  info.mumps_version = MUMPS_VERSION;
  info.mumps_flavor = FCSN_MUMPS_FLAVOR;
  const internal::LoadedBlas blas = internal::DescribeLoadedBlas();
  info.blas = blas.config;
  info.blas_kernel = blas.kernel;
  info.blas_threads = internal::BlasThreads();
  info.blas_kernel_below_cpu =
      !blas.kernel.empty() && !UsesAvx2(blas.kernel) && CpuHasAvx2Fma();
  return info;
}

}  // namespace fcsn
