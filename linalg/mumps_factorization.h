// linalg/mumps_factorization.h: the adapter between one MUMPS instance
// (mumps_instance.h) and the NumericFactorization interface of the
// mixed-precision decorator (mixed_precision.h), and what MUMPS reports after
// its analysis and factorization, read into LinearSolverStats. Internal to
// the sequential MUMPS backend (mumps_solver.cc).
//
//   MumpsFactorization<Real>   JOB = -1 / 1 / 2 / 3 on one instance of
//                              arithmetic Real: d-MUMPS in double precision,
//                              s-MUMPS in single precision. Values and
//                              right-hand sides come in double precision and
//                              are converted to Real; an LDL^T (SYM = 2)
//                              instance gathers one triangle through
//                              value_slots.
//   AnalyzeAndRead             JOB = 1 and the estimates INFOG(20), RINFOG(1).
#ifndef FCSN_LINALG_MUMPS_FACTORIZATION_H_
#define FCSN_LINALG_MUMPS_FACTORIZATION_H_

#include <memory>
#include <string>
#include <type_traits>
#include <vector>

#include "linalg/linear_solver.h"
#include "linalg/mixed_precision.h"
#include "linalg/mumps_instance.h"

namespace fcsn::internal {

// INFOG(i) of `instance` in MB, as a double.
template <typename Real>
inline double Megabytes(const MumpsInstance<Real>& instance, int i) {
  return static_cast<double>(instance.infog(i));
}

// The analysis estimates of the memory of the numeric phases, for the mode
// `options` asks for (LinearSolverStats::estimated_memory_mb): full-rank or
// BLR, in-core or out-of-core.
template <typename Real>
inline void ReadMemoryEstimates(const MumpsInstance<Real>& instance,
                                const LinearSolverOptions& options,
                                LinearSolverStats* stats) {
  const bool low_rank = options.low_rank_tolerance > 0.0;
  // INFOG index of the max-over-processes estimate; the sum follows it.
  int max_index = 16;  // full-rank, in-core
  if (low_rank) {
    max_index = options.out_of_core ? 38 : 36;
  } else if (options.out_of_core) {
    max_index = 26;
  }
  stats->estimated_memory_mb_max_rank = Megabytes(instance, max_index);
  stats->estimated_memory_mb = Megabytes(instance, max_index + 1);
}

// What MUMPS reports after a successful factorization: flops (full-rank and
// effective), factor entries (full-rank and compressed), memory used and
// disk space written.
template <typename Real>
inline void ReadFactorizationStats(const MumpsInstance<Real>& instance,
                                   LinearSolverStats* stats) {
  stats->last_factorization_flops = instance.rinfog(3);
  // MUMPS 5.5.1 leaves RINFOG(14) at 0 when BLR is off (the guide says it
  // equals RINFOG(3) then).
  stats->last_factorization_effective_flops =
      instance.icntl(35) != 0 ? instance.rinfog(14) : instance.rinfog(3);
  stats->factor_entries = MumpsCount(instance.infog(29));
  stats->compressed_factor_entries = MumpsCount(instance.infog(35));
  stats->factorization_memory_mb_max_rank = Megabytes(instance, 21);
  stats->factorization_memory_mb = Megabytes(instance, 22);
  stats->out_of_core_disk_mb = instance.rinfog(16);
}

// The numeric phase on one MUMPS instance of arithmetic Real, created
// (JOB = -1) and analysed on demand; double values and right-hand sides are
// cast to Real. The analysis input, the workspace policy and the stats belong
// to the MumpsSolver and outlive the adapter.
template <typename Real>
class MumpsFactorization final : public NumericFactorization {
 public:
  MumpsFactorization(const LinearSolverOptions* options,
                     MumpsAnalysisInput* input,
                     MumpsWorkspace* workspace,
                     LinearSolverStats* stats)
      : options_(options),
        input_(input),
        workspace_(workspace),
        stats_(stats) {}

  // MUMPS job -1, unless the instance exists.
  LinearSolverStatus Init(std::string* message) {
    if (instance_) {
      return linalg_detail::Report(LinearSolverStatus::kSuccess, "", message);
    }
    auto instance = std::make_unique<MumpsInstance<Real>>();
    const LinearSolverStatus status =
        instance->Init(*options_, message, input_->symmetric);
    if (status == LinearSolverStatus::kSuccess) instance_ = std::move(instance);
    return status;
  }

  // MUMPS job 1 on the current analysis input (after Init() if needed).
  LinearSolverStatus Analyze(std::string* message) {
    if (const LinearSolverStatus status = Init(message);
        status != LinearSolverStatus::kSuccess) {
      return status;
    }
    return instance_->Analyze(input_, message);
  }

  // Terminates the instance (JOB = -2).
  void Drop() { instance_.reset(); }

  LinearSolverStatus Factorize(const double* values,
                               std::string* message) override {
    if (!instance_ || !instance_->analyzed()) {
      if (const LinearSolverStatus status = Analyze(message);
          status != LinearSolverStatus::kSuccess) {
        return status;
      }
    }
    const Real* real_values = nullptr;
    const std::vector<int>& slots = input_->value_slots;
    if (!slots.empty()) {  // one triangle of a symmetric matrix
      values_.resize(slots.size());
      for (size_t k = 0; k < slots.size(); ++k)
        values_[k] = static_cast<Real>(values[slots[k]]);
      real_values = values_.data();
    } else if constexpr (std::is_same_v<Real, double>) {
      real_values = values;
    } else {
      values_.resize(input_->irn.size());
      std::copy(values, values + values_.size(), values_.begin());
      real_values = values_.data();
    }
    const LinearSolverStatus status =
        instance_->Factorize(real_values, workspace_, message);
    if (status == LinearSolverStatus::kSuccess) {
      ReadFactorizationStats(*instance_, stats_);
    }
    return status;
  }

  LinearSolverStatus Solve(Eigen::VectorXd* rhs,
                           std::string* message) override {
    if constexpr (std::is_same_v<Real, double>) {
      return instance_->Solve(rhs->data(), workspace_, message);
    } else {
      rhs_ = rhs->cast<Real>();
      const LinearSolverStatus status =
          instance_->Solve(rhs_.data(), workspace_, message);
      if (status == LinearSolverStatus::kSuccess) {
        *rhs = rhs_.template cast<double>();
      }
      return status;
    }
  }

  bool factorized() const override {
    return instance_ && instance_->factorized();
  }
  const MumpsInstance<Real>* instance() const { return instance_.get(); }

 private:
  const LinearSolverOptions* options_;
  MumpsAnalysisInput* input_;
  MumpsWorkspace* workspace_;
  LinearSolverStats* stats_;
  std::unique_ptr<MumpsInstance<Real>> instance_;
  std::vector<Real> values_;  // float copy, or the gathered triangle
  Eigen::Matrix<Real, Eigen::Dynamic, 1> rhs_;  // float copy of the rhs
};

// MUMPS job 1 on `factorization`; on success the ordering MUMPS used
// (INFOG(7), INFOG(32)) and the estimates of the factorization into the
// outputs.
template <typename Real>
inline LinearSolverStatus AnalyzeAndRead(
    MumpsFactorization<Real>* factorization,
    LinearSolverStats* stats,
    int* infog7,
    int* infog32,
    std::string* message) {
  const LinearSolverStatus status = factorization->Analyze(message);
  const MumpsInstance<Real>* instance = factorization->instance();
  if (status != LinearSolverStatus::kSuccess || instance == nullptr) {
    return status;
  }
  *infog7 = instance->infog(7);
  *infog32 = instance->infog(32);
  stats->estimated_factor_entries = MumpsCount(instance->infog(20));
  stats->estimated_flops = instance->rinfog(1);
  return status;
}

}  // namespace fcsn::internal

#endif  // FCSN_LINALG_MUMPS_FACTORIZATION_H_
