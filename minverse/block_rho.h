// minverse/block_rho.h: the per-contact numbers every rho rule is made of,
// read from a 3 x 3 diagonal block W_aa = H_a^T M^-1 H_a of the Delassus
// operator (formulations.md §5). One place for rho (minverse/rho.h), NSGS
// (nsgs/nsgs.h) and the transport sweep (newton/transport_sweep.h).
//
//   lambda_max(W)    largest eigenvalue of (W + W^T) / 2
//   lambda_max(W_TT) the same for the tangential 2 x 2 block (rows and
//                    columns 1, 2)
//   split rho        (1 / W_NN, 1 / lambda_max(W_TT), 1 / lambda_max(W_TT))
//   unusable W_aa    (a contact touching no free dof) takes the median of
//                    the usable contacts' values
#ifndef FCSN_MINVERSE_BLOCK_RHO_H_
#define FCSN_MINVERSE_BLOCK_RHO_H_

#include <Eigen/Core>
#include <vector>

namespace fcsn::internal {

// Split spectral rho (formulations.md §5): (1/W_NN, 1/lambda_max(W_TT),
// 1/lambda_max(W_TT)), W_TT symmetrized. Returns false (and leaves *rho
// unchanged) when W_NN <= 0 or lambda_max(W_TT) <= 0.
bool SplitSpectralRho(const Eigen::Matrix3d& W, Eigen::Vector3d* rho);

// Largest eigenvalue of the symmetric part of W (closed form).
double LargestEigenvalue(const Eigen::Matrix3d& W);
// Largest eigenvalue of the symmetric part of the tangential block W_TT (rows
// and columns 1, 2), closed form.
double LargestTangentEigenvalue(const Eigen::Matrix3d& W);

// The rule for a contact whose W_aa is unusable (attached to no free dof,
// formulations.md §5): it takes the median of the usable contacts' values
// (element size/2 in sorted order); 1 when no contact is usable. The one
// place of the rule, for rho (minverse/rho.h) and NSGS.
double MedianOfUsable(std::vector<double> values);

}  // namespace fcsn::internal

#endif  // FCSN_MINVERSE_BLOCK_RHO_H_
