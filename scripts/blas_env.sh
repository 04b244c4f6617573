# Sourced (not run) by the run scripts: makes OpenBLAS use kernels that match the CPU.
#
# Debian 12's OpenBLAS (0.3.21, DYNAMIC_ARCH) picks its kernels from the CPUID model number. On
# CPUs it does not know -- e.g. virtual machines that report "Intel(R) Xeon(R) Processor" -- it
# falls back to its Prescott (SSE3) kernels although the CPU has AVX2 or AVX-512; MUMPS'
# factorizations then run ~1.5x slower (bench/compare_siconos/README.md, "BLAS kernels").
# Unless the caller already set OPENBLAS_CORETYPE, choose the kernel family by instruction set:
# SkylakeX (AVX-512F+BW, Intel or AMD: Zen 4 has them), else Haswell (AVX2+FMA). The choice is
# exported, so it applies to every process started afterwards (fcsn and, in the benchmarks,
# Siconos alike). On a Zen 4 EPYC VM (2026-11-25) the Haswell kernels made a refine-2 wall solve
# 1.30-1.33 s against 1.23 s with SkylakeX (OpenBLAS' own detection: Cooperlake, 1.19-1.27 s).
if [[ -z "${OPENBLAS_CORETYPE:-}" && -r /proc/cpuinfo ]]; then
  fcsn_cpu_flags=" $(grep -m1 '^flags' /proc/cpuinfo | cut -d: -f2 || true) "
  if [[ $fcsn_cpu_flags == *" avx512f "* && $fcsn_cpu_flags == *" avx512bw "* ]]; then
    export OPENBLAS_CORETYPE=SkylakeX
  elif [[ $fcsn_cpu_flags == *" avx2 "* && $fcsn_cpu_flags == *" fma "* ]]; then
    export OPENBLAS_CORETYPE=Haswell
  fi
  unset fcsn_cpu_flags
fi
