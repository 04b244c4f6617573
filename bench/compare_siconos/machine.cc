// machine.cc: see machine.h.
#include "machine.h"

#include <dlfcn.h>
#include <unistd.h>

#include <cstdlib>
#include <ctime>
#include <fstream>
#include <sstream>

namespace fcsn_bench {
namespace {

std::string ReadFirstMatch(const char* path, const std::string& key) {
  std::ifstream in(path);
  std::string line;
  while (std::getline(in, line)) {
    if (line.rfind(key, 0) == 0) {
      auto pos = line.find(':');
      if (pos == std::string::npos) return line;
      std::string v = line.substr(pos + 1);
      v.erase(0, v.find_first_not_of(" \t"));
      return v;
    }
  }
  return "?";
}

// Kernel family OpenBLAS chose for this process (children inherit the same
// environment, hence the same choice); "not OpenBLAS" for another BLAS.
std::string OpenBlasCore() {
  using CoreName = char* (*)();
  const auto core_name =
      reinterpret_cast<CoreName>(dlsym(RTLD_DEFAULT, "openblas_get_corename"));
  return core_name != nullptr ? core_name() : "not OpenBLAS";
}

}  // namespace

std::string LoadAverage() {
  std::ifstream in("/proc/loadavg");
  std::string line;
  std::getline(in, line);
  return line;
}

std::string MachineDescription() {
  std::ostringstream s;
  char host[256] = {};
  gethostname(host, sizeof(host) - 1);
  const std::time_t now = std::time(nullptr);
  char date[64];
  std::strftime(date, sizeof(date), "%Y-%m-%d %H:%M:%S UTC", std::gmtime(&now));
  const char* blas = std::getenv("OPENBLAS_NUM_THREADS");
  const char* omp = std::getenv("OMP_NUM_THREADS");
  const char* coretype = std::getenv("OPENBLAS_CORETYPE");
  s << "- date: " << date << "\n"
    << "- nproc: " << sysconf(_SC_NPROCESSORS_ONLN) << "\n"
    << "- CPU: " << ReadFirstMatch("/proc/cpuinfo", "model name") << "\n"
    << "- memory: " << ReadFirstMatch("/proc/meminfo", "MemTotal") << "\n"
    << "- load average at start (1, 5, 15 min, ...): " << LoadAverage() << "\n"
    << "- OPENBLAS_NUM_THREADS=" << (blas ? blas : "(unset)")
    << ", OMP_NUM_THREADS=" << (omp ? omp : "(unset)") << "\n"
    << "- OpenBLAS kernels: " << OpenBlasCore()
    << " (OPENBLAS_CORETYPE=" << (coretype ? coretype : "(unset)") << ")\n";
  return s.str();
}

}  // namespace fcsn_bench
