// linalg/ordering.h: fill-reducing orderings computed by fcsn itself.
//
// Debian's MUMPS is built without METIS (formulations.md §10.7): asking it for
// ICNTL(7) = 5 silently falls back to another ordering. fcsn therefore runs
// METIS_NodeND (nested dissection) on the symmetrized pattern of J, i.e. the
// graph of J + J^T without self loops, and hands the result to MUMPS through
// PERM_IN with ICNTL(7) = 1.
//
// Conventions (METIS 5 manual, METIS_NodeND), with A' = P A P^T the
// reordered matrix:
//   perm[k]  = original index of the variable eliminated k-th
//              (row k of A' is row perm[k] of A);
//   iperm[i] = position in the elimination order of original variable i;
//   perm[iperm[i]] = i.
// MUMPS' PERM_IN(i) is the (1-based) pivot position of variable i, hence
//   PERM_IN(i + 1) = iperm[i] + 1.
// tests/linalg/ordering_test.cc and mumps_solver_test.cc check the convention
// and the fill it produces.
#ifndef FCSN_LINALG_ORDERING_H_
#define FCSN_LINALG_ORDERING_H_

#include <string>
#include <vector>

#include "linalg/linear_solver.h"

namespace fcsn::internal {

// Graph of J + J^T without the diagonal, in METIS' CSR adjacency form: the
// neighbours of vertex i are adjacency[offsets[i] .. offsets[i+1]), sorted,
// without duplicates. `pattern` must satisfy CheckPattern().
struct AdjacencyGraph {
  std::vector<int> offsets;
  std::vector<int> adjacency;
};
AdjacencyGraph SymmetrizedGraph(const SparsityPattern& pattern);

// Nested-dissection ordering of `pattern` with METIS_NodeND (default METIS
// options, whose fixed default seed makes the result deterministic). On success
// fills perm and iperm (both of size n, 0-based, in the convention above) and
// returns kSuccess; otherwise returns kInvalidInput (pattern), kOutOfMemory or
// kFailure with a message. Edgeless graphs (diagonal matrices, n <= 1) get the
// identity.
LinearSolverStatus ComputeMetisOrdering(const SparsityPattern& pattern,
                                        std::vector<int>* perm,
                                        std::vector<int>* iperm,
                                        std::string* message);

}  // namespace fcsn::internal

#endif  // FCSN_LINALG_ORDERING_H_
