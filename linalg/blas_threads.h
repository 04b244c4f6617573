// linalg/blas_threads.h: the one place fcsn sets the threads of the numerical
// libraries it loads: OpenBLAS' pool (one BLAS thread while the setup runs
// two threads of its own) and the OpenMP teams of CHOLMOD's loops on a calling
// thread (SerialOpenMpOnThisThread).
//
// A threaded OpenBLAS (Debian's default, libopenblas0-pthread) serves the
// BLAS calls of every caller thread from one pool sized by
// OPENBLAS_NUM_THREADS, by default the number of cores. When the two setup
// threads of a solve (SolverOptions::setup_threads: M's Cholesky with
// CHOLMOD beside J's analysis and LDL^T factorization with MUMPS) both call
// dense kernels, their calls queue for that pool and its spinning workers
// take the cores the setup threads need: on a 2-core machine a refine-2 wall
// step took 3.1-3.5 s with OpenBLAS' default threads against 1.2-1.3 s with
// one (bench/results/blas_threads.md). The setup threads are already the
// parallelism there, so while they run, BLAS is asked for one thread, and the
// caller's setting is restored when the last overlapped setup of the process
// ends (the Newton iterations that follow run one thread of ours and get the
// caller's BLAS threads).
//
// The setting is process-wide (OpenBLAS keeps one), so the guard counts
// overlapped setups of all Solvers: the first one saves and lowers the
// setting, the last one restores it. A BLAS without
// openblas_{get,set}_num_threads (a serial or another BLAS) is left alone.
// Measured with Debian's pthread build of OpenBLAS only: its OpenMP build
// (libopenblas0-openmp) takes the thread count of each call from the calling
// thread's OpenMP setting, which this process-wide request does not change on
// the setup threads.
#ifndef FCSN_LINALG_BLAS_THREADS_H_
#define FCSN_LINALG_BLAS_THREADS_H_

#include <string>

namespace fcsn::internal {

class SingleBlasThread {
 public:
  // Lowers the BLAS threads to one when active and the BLAS has the setting.
  explicit SingleBlasThread(bool active);
  ~SingleBlasThread();  // restores them when the last guard of the process ends
  SingleBlasThread(const SingleBlasThread&) = delete;
  SingleBlasThread& operator=(const SingleBlasThread&) = delete;

  // Ends the guard early (idempotent); the destructor then does nothing.
  void Release();

 private:
  bool active_;
};

// CHOLMOD's supernodal loops are OpenMP with num_threads(4) compiled in,
// whatever OMP_NUM_THREADS says. On the calling thread, the runtime's dynamic
// adjustment with one thread asked for (both per-thread settings of that
// thread) gives them teams of one: M is factorized beside the second setup
// thread, and 4 more threads on a 2-core machine only slow both down. The
// runtime is the one CHOLMOD loaded (looked up, not linked); without one the
// loops are serial anyway.
void SerialOpenMpOnThisThread();

// The BLAS threads the loaded OpenBLAS would use now (0 when there is no
// OpenBLAS setting to read). For tests and reports.
int BlasThreads();

// The loaded OpenBLAS' openblas_get_config() and openblas_get_corename()
// strings; empty when the BLAS is not OpenBLAS.
struct LoadedBlas {
  std::string config;
  std::string kernel;
};
LoadedBlas DescribeLoadedBlas();

}  // namespace fcsn::internal

#endif  // FCSN_LINALG_BLAS_THREADS_H_
