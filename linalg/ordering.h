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
//
// Threads: the METIS calls of the whole process take turns (one lock): METIS
// 5.1 swaps the process' SIGABRT/SIGTERM handlers around each call, which
// overlapping calls would leave swapped. The graphs are built outside it.
//
// Block ordering (large patterns with SparsityPattern::block_starts): with
// blocks B_1..B_K of consecutive variables, the quotient graph has one vertex
// per block (weight |B_k|) and an edge {k, l} when some variable of B_k is
// adjacent to one of B_l. METIS_NodeND orders the quotient; the variables
// follow block by block (in their original order within a block). On the
// refine-2 wall's M (linalg/fill_ordering.h: n = 43,745 in node triples) the
// quotient has 6x fewer edges and METIS takes 0.065 s instead of 0.42 s for
// 5 % more entries in L; on its J (v in triples, each contact unknown its
// own block) 0.10 s instead of 0.52 s, for 3 % more factorization flops
// (means of five METIS seeds), but 14 % more on the elastic bar (J of n =
// 25,452): see SparsityPattern::block_starts and
// bench/results/refine2_speed.md. It is used when n >= kBlockOrderingMinSize
// and the quotient has at most 1 / kBlockOrderingMinEdgeRatio of the edges
// (the blocks group neighbours); otherwise the variables' graph is ordered as
// above, so smaller patterns keep their orderings bit for bit.
//
// Adaptive block ordering (applied by MumpsSolver to patterns with
// block_starts, NewtonSystem gives J's, when
// LinearSolverOptions::adaptive_block_ordering; off by default, see there
// for the measured trade-off): the block ordering saves METIS time
// once per analysis and costs a fraction alpha of every factorization, so a
// pattern analysed by blocks is analysed again on its variables' graph, before
// a factorization, as soon as
//   kBlockOrderingAssumedLoss * F >= R,
// where F counts the flops of the factorizations done on the block analysis
// so far (across solves while the analysis is kept; MUMPS' count of each)
// and R estimates that re-analysis in flops of factorization
// (EstimatedReanalysisFlops: METIS on the variables' graph and MUMPS'
// symbolic phase, proportional to the graph's edges). It is the break-even
// rule of ski rental: a cold solve with few factorizations keeps the cheap
// ordering; an analysis reused over many factorizations (time stepping on a
// fixed contact set) pays at most R + alpha F_switch once and then factorizes
// with the better ordering, as if it had been ordered on the variables' graph
// from the start. Both sides are counts, not clocks: the factorization that
// switches depends on the pattern and the values only, so every run of a
// solve or a time loop gives the same iterates bit for bit. (With measured
// seconds, the switch came at a different factorization when the machine
// was loaded: a pushed block's time loop, started at rest on two setup
// threads, gave 8 or 9 iterations on one step in two runs,
// bench/results/fronts.md.) Patterns below kBlockOrderingMinSize are never
// ordered by blocks. See bench/results/j_ordering.md.
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

// The block ordering's thresholds (see above): the size of the refine-2
// wall's M and J is above, the 688-contact wall's (n = 7205, every golden
// history) below.
constexpr int kBlockOrderingMinSize = 20000;
// A quotient with more than a third of the edges means blocks that do not
// group neighbours (e.g. a component-major numbering); blocks of 3 dofs of
// finite-element nodes give 6x fewer edges.
constexpr double kBlockOrderingMinEdgeRatio = 3.0;

// METIS' refinement iterations per uncoarsening level (METIS_OPTION_NITER;
// its default is 10) on graphs of at least kBlockOrderingMinSize vertices
// ordered without blocks: 1 orders J 20 % faster at the same fill (refine-2
// wall: 0.41 s instead of 0.52 s, estimated flops 2.99-3.01e10 against
// 2.99-3.03e10 over three seeds; elastic bar: 0.14 s instead of 0.17 s,
// 1.70-1.71e9 against 1.69-1.71e9; bench/results/refine2_speed.md). The
// quotients of the block ordering (always of such sizes) use it too: on the
// refine-2 gravity steps J's LDL^T then takes 1.71e10 flops instead of
// 1.79e10 and METIS 0.06 s instead of 0.08 s; the elastic bar 2.41e9 instead
// of 2.42e9 (bench/results/early_factorization.md). Smaller graphs
// keep METIS' default, and their orderings bit for bit.
constexpr int kLargeGraphRefinementIterations = 1;

// What an ordering did: by_blocks when the block ordering applied; the
// (directed, i.e. twice the undirected) edge counts of the variables' graph
// and, when blocks were given to a large pattern, of their quotient (0
// otherwise).
struct OrderingReport {
  bool by_blocks = false;
  long long graph_edges = 0;
  long long quotient_edges = 0;
};

// The factorization flops the block ordering of J is assumed to add, as a
// fraction: measured 0.03-0.05 on the refine-2 wall and 0.14 on the elastic
// bar (refine2_speed.md); this is their geometric mean, which keeps the
// break-even rule's cost within about 3.2 times the best switch of hindsight
// over that whole range (ski rental with a loss off by a factor x costs at
// most max(1 + x, 1 + 1 / x) times the optimum).
constexpr double kBlockOrderingAssumedLoss = 0.065;

// The cost of re-analysing J on its variables' graph, in flops of
// factorization per edge of that graph (METIS' nested dissection is about
// linear in the edges; MUMPS' symbolic phase is folded in). Measured on the
// 2-core reference machine (1 BLAS thread, single-precision factors), as the
// re-analysis' seconds estimated from the quotient's ordering time times the
// ratio of edges plus the symbolic phase's, over the seconds per flop of J's
// factorizations: 2.3e4 on the refine-2 wall's gravity step (2.17e6 edges,
// 0.71 s; 3.27e10 flops in 0.46 s) and 2.0e4 on the pushed 5313-contact
// block (2.11e6 edges, 0.92 s; 1.13e10 flops in 0.24 s). Where BLAS runs
// relatively faster than METIS (more threads), the switch comes later than
// the break-even point; the ski-rental bound then grows by that ratio.
constexpr double kReanalysisFlopsPerEdge = 2e4;

// R of the adaptive rule above for a by-blocks `report`:
// kReanalysisFlopsPerEdge times the variables' graph's edges.
double EstimatedReanalysisFlops(const OrderingReport& report);

// The adaptive rule above: true when a block analysis that has factorized
// `factorization_flops` should be redone on the variables' graph, whose cost
// is estimated at `reanalysis_flops`.
bool ShouldReorderWithoutBlocks(double factorization_flops,
                                double reanalysis_flops);

// block_starts for blocks of `size` consecutive variables (the last block
// may be shorter) of n variables.
std::vector<int> UniformBlocks(int n, int size);

// The quotient of `graph` (n vertices) by the blocks `block_starts` (same
// contract as SparsityPattern::block_starts), and in *weights the block
// sizes.
AdjacencyGraph QuotientGraph(const AdjacencyGraph& graph,
                             int n,
                             const std::vector<int>& block_starts,
                             std::vector<int>* weights);

// QuotientGraph(SymmetrizedGraph(pattern), pattern.n, block_starts, weights)
// built from the pattern directly, and in *graph_edges the adjacency size of
// SymmetrizedGraph(pattern): the variables' graph is never formed. On a
// refine-2 J its 2 nnz entries took 0.06 s to build and sort, more than METIS
// takes on the quotient, on the critical path of a two-thread setup.
AdjacencyGraph QuotientGraphOfPattern(const SparsityPattern& pattern,
                                      const std::vector<int>& block_starts,
                                      std::vector<int>* weights,
                                      long long* graph_edges);

// METIS_NodeND of `graph` (n vertices, at least one edge), by blocks when
// block_starts is non-empty and the block ordering applies (n and the edge
// ratio above), else with kLargeGraphRefinementIterations when n >=
// kBlockOrderingMinSize; perm and iperm in the convention above. Returns METIS' code
// (METIS_OK on success). METIS takes the arrays as non-const (it does not
// change them). `report` may be nullptr.
int NestedDissectionOrder(AdjacencyGraph* graph,
                          int n,
                          const std::vector<int>& block_starts,
                          std::vector<int>* perm,
                          std::vector<int>* iperm,
                          OrderingReport* report = nullptr);

// Nested-dissection ordering of `pattern` with METIS_NodeND (default METIS
// options, whose fixed default seed makes the result deterministic), by
// pattern.block_starts when the block ordering applies. On success
// fills perm and iperm (both of size n, 0-based, in the convention above) and
// returns kSuccess; otherwise returns kInvalidInput (pattern), kOutOfMemory or
// kFailure with a message. Edgeless graphs (diagonal matrices, n <= 1) get the
// identity. `report` (may be nullptr) receives what the ordering did.
// use_blocks = false ignores pattern.block_starts.
LinearSolverStatus ComputeMetisOrdering(const SparsityPattern& pattern,
                                        std::vector<int>* perm,
                                        std::vector<int>* iperm,
                                        std::string* message,
                                        OrderingReport* report = nullptr,
                                        bool use_blocks = true);

}  // namespace fcsn::internal

#endif  // FCSN_LINALG_ORDERING_H_
