// The threads of OpenBLAS and of OpenMP teams; see blas_threads.h.
#include "linalg/blas_threads.h"

#include <dlfcn.h>

#include <mutex>

namespace fcsn::internal {
namespace {

using GetThreads = int (*)();
using SetThreads = void (*)(int);

// The OpenBLAS the process loaded, looked up rather than linked: fcsn links
// whichever BLAS MUMPS and CHOLMOD were built against. RTLD_DEFAULT searches
// the scope of the calling library, which holds its dependencies also when it
// was loaded privately (a Python extension).
struct OpenBlasSetting {
  GetThreads get = nullptr;
  SetThreads set = nullptr;
};

OpenBlasSetting LoadedOpenBlas() {
  OpenBlasSetting setting;
  setting.get = reinterpret_cast<GetThreads>(
      dlsym(RTLD_DEFAULT, "openblas_get_num_threads"));
  setting.set = reinterpret_cast<SetThreads>(
      dlsym(RTLD_DEFAULT, "openblas_set_num_threads"));
  if (setting.get == nullptr || setting.set == nullptr) setting = {};
  return setting;
}

// The process-wide count of overlapped setups and the setting saved by the
// first: one BLAS setting exists per process, so its guard does too.
struct Overlaps {
  std::mutex lock;
  int active = 0;
  int saved_threads = 0;  // 0: nothing to restore
};

Overlaps& ProcessOverlaps() {
  static Overlaps overlaps;
  return overlaps;
}

}  // namespace

SingleBlasThread::SingleBlasThread(bool active) : active_(false) {
  if (!active) return;
  const OpenBlasSetting blas = LoadedOpenBlas();
  if (blas.get == nullptr) return;
  Overlaps& overlaps = ProcessOverlaps();
  const std::lock_guard<std::mutex> guard(overlaps.lock);
  if (overlaps.active++ == 0) {
    const int threads = blas.get();
    overlaps.saved_threads = threads > 1 ? threads : 0;
    if (threads > 1) blas.set(1);
  }
  active_ = true;
}

SingleBlasThread::~SingleBlasThread() { Release(); }

void SingleBlasThread::Release() {
  if (!active_) return;
  active_ = false;
  const OpenBlasSetting blas = LoadedOpenBlas();
  Overlaps& overlaps = ProcessOverlaps();
  const std::lock_guard<std::mutex> guard(overlaps.lock);
  if (--overlaps.active == 0 && overlaps.saved_threads > 1) {
    blas.set(overlaps.saved_threads);
    overlaps.saved_threads = 0;
  }
}

LoadedBlas DescribeLoadedBlas() {
  using GetString = const char* (*)();
  LoadedBlas blas;
  const auto config =
      reinterpret_cast<GetString>(dlsym(RTLD_DEFAULT, "openblas_get_config"));
  const auto kernel =
      reinterpret_cast<GetString>(dlsym(RTLD_DEFAULT, "openblas_get_corename"));
  if (config != nullptr && config() != nullptr) blas.config = config();
  if (kernel != nullptr && kernel() != nullptr) blas.kernel = kernel();
  return blas;
}

int BlasThreads() {
  const OpenBlasSetting blas = LoadedOpenBlas();
  return blas.get != nullptr ? blas.get() : 0;
}

void SerialOpenMpOnThisThread() {
  using SetInt = void (*)(int);
  const auto set_dynamic =
      reinterpret_cast<SetInt>(dlsym(RTLD_DEFAULT, "omp_set_dynamic"));
  const auto set_num_threads =
      reinterpret_cast<SetInt>(dlsym(RTLD_DEFAULT, "omp_set_num_threads"));
  if (set_dynamic == nullptr || set_num_threads == nullptr) return;
  set_dynamic(1);
  set_num_threads(1);
}

}  // namespace fcsn::internal
