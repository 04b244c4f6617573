# Sourced (not run) by the run scripts: makes OpenBLAS use kernels that match the CPU.
#
# Debian 12's OpenBLAS (0.3.21, DYNAMIC_ARCH) picks its kernels from the CPUID model number. On
# CPUs it does not know -- e.g. virtual machines that report "Intel(R) Xeon(R) Processor" -- it
# falls back to its Prescott (SSE3) kernels although the CPU has AVX2 or AVX-512; MUMPS'
# factorizations then run ~1.5x slower (bench/compare_siconos/README.md, "BLAS kernels").
# Unless the caller already set OPENBLAS_CORETYPE, choose the kernel family by instruction set:
# SkylakeX (Intel AVX-512F+BW), else Haswell (AVX2+FMA). The choice is exported, so it applies
# to every process started afterwards (fcsn and, in the benchmarks, Siconos alike).
if [[ -z "${OPENBLAS_CORETYPE:-}" && -r /proc/cpuinfo ]]; then
  fcsn_cpu_flags=" $(grep -m1 '^flags' /proc/cpuinfo | cut -d: -f2 || true) "
  fcsn_cpu_vendor=$(grep -m1 '^vendor_id' /proc/cpuinfo | cut -d: -f2 | tr -d ' ' || true)
  if [[ $fcsn_cpu_vendor == GenuineIntel && $fcsn_cpu_flags == *" avx512f "* &&
        $fcsn_cpu_flags == *" avx512bw "* ]]; then
    export OPENBLAS_CORETYPE=SkylakeX
  elif [[ $fcsn_cpu_flags == *" avx2 "* && $fcsn_cpu_flags == *" fma "* ]]; then
    export OPENBLAS_CORETYPE=Haswell
  fi
  unset fcsn_cpu_flags fcsn_cpu_vendor
fi
