// machine.h: the machine description at the head of compare_siconos' report
// (date, nproc, CPU, memory, load average, BLAS threads and kernels).
#ifndef FCSN_BENCH_COMPARE_SICONOS_MACHINE_H_
#define FCSN_BENCH_COMPARE_SICONOS_MACHINE_H_

#include <string>

namespace fcsn_bench {

// The line of /proc/loadavg.
std::string LoadAverage();

// Markdown bullet lines ("- key: value\n"), the load average at this moment.
std::string MachineDescription();

}  // namespace fcsn_bench

#endif  // FCSN_BENCH_COMPARE_SICONOS_MACHINE_H_
