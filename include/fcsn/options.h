// fcsn/options.h: every setting of a solve, as plain structs with documented
// in-class defaults.
//
// Defaults are what a user gets from `fcsn solve FILE`. Each field states its
// meaning and nominal range; SolverOptions::Validate() checks all of them and
// returns one readable sentence. A solve with invalid options returns
// SolverStatus::kInvalidInput with that sentence as its message.
#ifndef FCSN_OPTIONS_H_
#define FCSN_OPTIONS_H_

#include <atomic>
#include <functional>
#include <limits>
#include <string>

#include "fcsn/linear_solver_options.h"
#include "fcsn/types.h"

namespace fcsn {

struct IterationRecord;

// What to do when the line search finds no acceptable step.
enum class LineSearchFailurePolicy {
  kStop,  // "stop": end the solve with SolverStatus::kLineSearchFailed (best
          // iterate returned), in the hybrid too (no NSGS fallback)
  kAcceptStep,  // "accept": take the last trial step anyway (Siconos'
                // behaviour), counted in
                // SolverSummary::accepted_line_search_failures
  kFallback,    // "fallback": the hybrid hands over to NSGS sweeps as for any
                // other Newton failure (HybridOptions::max_fallbacks); as kStop
                // for pure Newton
};
inline constexpr std::array<LineSearchFailurePolicy, 3>
    kAllLineSearchFailurePolicies = {LineSearchFailurePolicy::kStop,
                                     LineSearchFailurePolicy::kAcceptStep,
                                     LineSearchFailurePolicy::kFallback};

// Starting iterate of a solve given no guess (Solver::Solve without one, or
// with one whose v and r are all exactly 0); details in newton/cold_start.h.
//
// At v = 0, r = 0, u = w. Where w_N is zero up to round-off (closed gaps: the
// masonry wall's gravity steps carry |w_N| <= 1e-18 against free velocities
// ~1e-3), every contact sits on the kink s_N = -rho_N w_N = 0, round-off
// decides which contacts Newton's first step treats as closed, and Newton
// then needs 12-20 iterations (33-50 at refine 2) where 2-4 suffice when
// those resting contacts start closed and sticking (bonded), and 3-4 from the
// free-flight point on all but the first loaded step
// (bench/results/gravity_steps.md).
enum class ColdStart {
  kZero,        // "zero": v = 0, r = 0
  kFreeFlight,  // "free-flight": v = M^-1 f, r = 0 (the solve that q_free
                // already makes; no extra factorization)
  // "bonded": v = 0, r = 0 except at the resting contacts (u_a round-off at
  // v = 0), which start closed and sticking (a tiny normal reaction).
  kBonded,
  // "auto": bonded when the problem is at rest (||w||_inf <=
  // kColdStartRoundOff ||q_free - w||_inf), else the resting contacts and the
  // approaching ones (below) start closed. With real gaps (the wall's shear
  // steps) bonded alone is mixed (median 15 -> 14, max 27 -> 33 on the 50
  // LowWall_FEM problems) and free flight loses (median 26); approaching
  // alone took the 48 not at rest from median 13, max 34 (zero) to 10, 12
  // and the cold refine-2 shear steps from 20-28 to 13-16 iterations; both
  // sets closed: the 50 walls mean 9.7 -> 9.4 (median 10), the shear steps
  // 13-16 -> 4-8 iterations (bench/results/cold_approaching.md). Where the
  // free flight slides no approaching contact (a body loaded from rest: the
  // wall's first shear step), both sets close at the free flight v = M^-1 f
  // instead of v = 0: that step 7, 13, 16, 31 -> 3, 5, 3, 5 iterations at
  // refine 1-4.
  kAuto,
  // "approaching": v = 0, r = 0 except at the contacts that the free flight
  // drives together, (q_free)_N,a < -kColdStartRoundOff ||q_free - w||_inf,
  // which start closed and sticking: Newton's first step solves the bonded
  // problem on them and leaves the others free, instead of the zero start's
  // free-flight step that closes them only at the second iterate.
  kApproaching,
};
// Indexed by the C API's fcsn_cold_start values: append, never reorder.
inline constexpr std::array<ColdStart, 5> kAllColdStarts = {
    ColdStart::kZero,
    ColdStart::kFreeFlight,
    ColdStart::kBonded,
    ColdStart::kAuto,
    ColdStart::kApproaching};
// Relative size below which velocities count as round-off: a contact's u_a
// (resting) or the whole w (at rest) against ||q_free - w||_inf. Why 1e-10:
// w from gaps computed in double precision carries round-off of ~1e-16 of the
// coordinates (|w_N| <= 1e-18 on the wall's gravity steps, ratio <= 1e-14),
// while a real gap of one part in 1e10 of the free motion is far below any
// tolerance a solve is asked for.
inline constexpr double kColdStartRoundOff = 1e-10;

// SolverOptions::krylov_reuse_iterations: the budget chosen from the size of
// the Newton system.
inline constexpr int kAutoKrylovReuse = -1;

// Line search on the merit theta(z) = 1/2 ||D G(z)||^2 (formulations.md §6),
// D = diag(1/s_eq on the equilibrium rows, 1/s_c on the contact rows) puts
// both blocks on a common, unit-free scale.
struct LineSearchOptions {
  // Full steps by default: on the FEM sets of Acary-Bremond-Huber and on fcsn's
  // own rigid piles, semismooth Newton from a warm start often raises the merit
  // for one step before converging quadratically, and a monotone search then
  // crawls (a 6-box pile: 5 iterations without, no convergence in 100 with
  // Armijo). The hybrid's stall detection and NSGS fallback are the safeguard;
  // pure Newton users who want monotonicity choose kArmijo or kNonMonotone.
  LineSearchType type = LineSearchType::kNone;
  // Armijo constant sigma in theta(alpha) <= theta(0) + sigma alpha theta'(0).
  // Nominal 1e-4.
  double sufficient_decrease = 1e-4;
  // Backtracking: alpha <- clamp(quadratic-interpolation minimizer,
  // [min_shrink, max_shrink]) alpha.
  double min_shrink = 0.1;
  double max_shrink = 0.5;
  // Goldstein bracket constants, 0 < goldstein_m1 < goldstein_m2 < 1 (m1 is the
  // Armijo side).
  double goldstein_m1 = 1e-4;
  double goldstein_m2 = 0.9;
  // Non-monotone Armijo: compare against the max merit of the last
  // `non_monotone_window` iterates.
  int non_monotone_window = 5;
  // At most this many trial steps per Newton iteration (each costs one residual
  // evaluation).
  int max_trials = 30;
  // Smallest step length tried; below it the search has failed.
  double min_step = 1e-10;
  // kFallback by default: pure Newton stops with kLineSearchFailed, the hybrid
  // treats the failure as any other Newton failure and falls back to NSGS.
  LineSearchFailurePolicy on_failure = LineSearchFailurePolicy::kFallback;
};

// Per-contact scaling rho of the residuals (formulations.md §5).
struct RhoOptions {
  // Split rule by default: it keeps the tangential block well scaled when the
  // Delassus block is anisotropic (GFC3D_Example00_badly_scaled needs 2
  // iterations with it, stalls without).
  RhoRule rule = RhoRule::kSplitExactDelassus;
  // Used by RhoRule::kConstant for every component of every contact; > 0.
  double value = 1.0;
  // Multiplies the rule's rho (e.g. 0.5 for more conservative steps); > 0.
  double factor = 1.0;
  // rho continuation of the Newton solver. Newton starts with the rule's rho
  // times `initial_boost` (>= 1; 1 disables the continuation) and, whenever its
  // merit has not dropped below `boost_stall_ratio` times its value
  // `boost_window` iterations earlier, divides the boost by `boost_reduction`
  // (> 1, never below 1) and restarts from the iterate of least merit under
  // the boosted rho (a cold start itself excluded: its merit, that of the
  // balance alone, says nothing of the contacts); three iterates on one piece
  // (every contact state unchanged) that do not halve the merit set the boost
  // to 1 at once (newton/stall_detection.h, PieceWatch: slowly slipping
  // contacts under a boosted rho; 3D blocks at theta = 1/2, largest count per
  // step 24 -> 12, bench/results/fronts.md). The zero set of every
  // residual is the same for all rho > 0, so changing rho during a solve
  // changes the path, not the answer.
  // Why 30: on the 50 masonry-wall problems at tol 1e-8 a larger rho identifies
  // the stick/slip set sooner (median Newton iterations 23 at boost 1, 17 at
  // 10, 15 at 30, 16 at 100, where more restarts are needed; a fixed rho of
  // 100x leaves 2 of them unsolved), while rigid piles stall with it
  // (Box_Stacks: 6 iterations at boost 1, 10 at 30 after one reduction, none in
  // 100 without the continuation). Table: bench/results/rho_boost.md. NSGS
  // always uses the rule's rho.
  // When the merit still stalls at boost 1 (or with the continuation off),
  // no NSGS fallback is available (pure Newton, or the hybrid over its W
  // budget) and LineSearchOptions::type is kNone, Newton restarts once from
  // the iterate of least merit with an Armijo search for the rest of the run
  // (SolverSummary::line_search_safeguards): full steps can 2-cycle where every
  // contact is at a stick/slip kink (the stopping step of the 2121-contact
  // elastic bar, warm-started: max-iterations without it, 40 iterations with
  // it; tests/examples/elastic_bar_test.cc).
  double initial_boost = 30.0;
  // The initial boost of a solve started from the caller's guess (Solve()
  // with a guess that carries information; see SolverOptions::cold_start),
  // >= 1; the continuation then goes on as above. Why 100: from a warm start
  // the contact velocities are nearly right, and a larger rho lets them fix
  // the stick/slip pieces sooner. Warm time steps of the masonry wall
  // (bench/warm_steps --extrapolate, steps 22-60 of the 688-contact wall):
  // 152 Newton iterations at 30, 149 at 50, 143 at 100, 140 at 200 (179,
  // 175, 167, 163 from the previous step's solution); refine-2 shear steps
  // 22-30: 60 iterations and 47 factorizations at 30, 57 and 43 at 100, but
  // 75 at 300, where one step stalls and restarts (24 iterations).
  // bench/results/warm_steps.md.
  double warm_initial_boost = 100.0;
  // With Alart-Curnier and Jean-Moreau, the warm boost is divided by
  // boost_reduction (not below 1) until it puts no contact on its slip piece
  // at the guess that the rule's rho has on its stick piece or off its disk
  // (newton/warm_boost.h). Why: such a contact's guess velocity is not right,
  // the boost magnifies it and Newton's first step overshoots the slip set. A
  // warm step after a step solved to 1e-4 (refine-4 wall, 9832 contacts,
  // step 22): time limit after 46 iterations under 100, 3 under the fitted
  // 10; the walls' and the pushed blocks' warm steps keep 100
  // (bench/results/fronts.md). Default true.
  bool warm_boost_keeps_pieces = true;
  // The tail boost: the first Newton iterate after the start whose worst
  // measure max(e_cone, e_dual, e_comp, e_eq) (formulations.md §9.1, unit-
  // free) is below `tail_error` multiplies the boost by `tail_boost_factor`,
  // once per solve, and that iterate's direction is already the boosted rho's
  // (G and J are evaluated again, so the direction agrees with its line
  // search); the stall reduction above still applies after it. Not with
  // Formulation::kFischerBurmeister: there the boosted last steps leave a
  // take-off contact's r at ~1e-13 instead of ~1e-15 and lose the quadratic
  // final step (tests/capi, the formulation convergence tests). Why: near the
  // solution the velocities are nearly right and a larger rho fixes the last
  // stick/slip pieces sooner (as from a warm start). Cold, tol 1e-8
  // (bench/results/rho_boost.md): the 50 688-contact walls 15.5 -> 14.1 mean
  // Newton iterations (median 15 -> 14; factor 30 at 1e-2: 15.8, at 1e-4:
  // 14.7; factor 100 at 1e-3: 14.6); with the boosted direction at the boost
  // iterate itself, 9.42 -> 9.10 mean iterations from the default cold start
  // (factors 10 and 100: 9.12 and 9.22), warm 688-contact shear steps 142 ->
  // 136 iterations, Box_Stacks at 1e-10 11 -> 4; the nine refine-2 shear steps
  // 213 -> 178 iterations (121.9 -> 100.6 s), none more; gravity steps, the
  // elastic bar and the shared FCLib problems unchanged.
  // Not after a stall reduction in the same solve: the stall showed that the
  // slip set overshoots under the larger rho, and the tail boost would undo
  // the reduction (a 5313-contact elastic block step, E = 1e9, warm-started:
  // boost 100 -> 10 on the stall, then x30 = 300 in the tail, the overshoot
  // again, 26 iterations; 20 without the tail boost; the walls' cold and warm
  // steps never reduce before the tail and are unchanged;
  // bench/results/fronts.md).
  // Worst measure below which the tail boost applies; > 0, default 1e-3.
  double tail_error = 1e-3;
  // Factor of the tail boost; >= 1 (1 disables it), default 30.
  double tail_boost_factor = 30.0;
  // In a solve from a guess, with the tail boost (Alart-Curnier and
  // Jean-Moreau), a contact on its slip piece whose slip margin under the
  // rule's rho exceeds the last Newton step's change of s_T = r_T - rho_T u_T
  // keeps the rule's rho; the others get the boost (newton/tail_rho.h). Why:
  // under a boosted rho a slip row's direction follows u_T, which turns from
  // step to step where the slip is slow, and the tail is no longer quadratic.
  // Pushed 3D blocks (5313 contacts, E = 1e9, warm steps): median Newton
  // iterations per front step 9 -> 8; the walls' warm shear steps (136) and
  // the pushed chain unchanged (bench/results/fronts.md). Not in cold solves:
  // there it gained nothing (the 50 cold walls 455 iterations either way,
  // the golden histories 304 -> 305) and one tail step of a JM lattice lost
  // its quadratic constant (tests/newton/formulation_convergence_test.cc).
  // Default true.
  bool tail_unboost_slips = true;
  // In a solve from a guess right after a converged solve of the same Solver
  // (time stepping), with Alart-Curnier and Jean-Moreau, every contact that
  // ended that solve at the rule's rho (a settled slip of
  // tail_unboost_slips) starts at the rule's rho again; the others start at
  // the warm boost. Why: when the guess is that solve's answer, the first
  // Newton matrix is then that solve's last one up to a factor per row, and
  // the first direction takes its factors (krylov_reuse_iterations) instead
  // of a new factorization, where a uniform warm boost changed every slip
  // row. Pushed 3D blocks, 60 steps: 3-35 % fewer factorizations and 3-19 %
  // less time in all 12 runs (median front step at 5313 contacts, E = 1e9:
  // 10.1 -> 8.9 factorizations' time), 0-12 % more iterations; the walls'
  // warm steps 136 -> 137 iterations, same time (bench/results/fronts.md).
  // Default true.
  bool warm_keeps_settled_slips = true;
  // In a solve whose guess is the answer of the converged solve just before
  // with the same Solver (bit for bit), with Alart-Curnier and Jean-Moreau:
  // the contacts that ended that solve on their slip piece under a larger rho
  // than this one starts them at (the slips the tail rule left boosted), and
  // that are on their slip piece at the guess under both, keep their ended
  // rho for Newton's first step and take the start's from the second iterate
  // on (newton/warm_boost.h). Why: their slip rows under the warm boost
  // differ from the last matrix's by more than a factor per row, and the
  // first direction then needs a new factorization instead of the last
  // factors (warm_keeps_settled_slips). Pushed 3D blocks, 60 steps, 5313
  // contacts: one factorization fewer per front step at the same iterations
  // (median front step 9.0-9.1 -> 8.0-8.1 factorizations' time, E = 2e11);
  // kept for the whole solve they cost an iteration per front step. The
  // 688-contact walls' warm steps from the last answer: 130 -> 95
  // factorizations, time x0.79 (bench/results/fronts.md). Default true.
  bool warm_first_step_keeps_slips = true;
  // Divisor of the boost when the merit stalls; > 1, default 10.
  double boost_reduction = 10.0;
  // Iterations over which a stall of the merit is judged; >= 1, default 5.
  int boost_window = 5;
  // The merit stalls when it is not below this ratio times its value
  // `boost_window` iterations earlier; in (0, 1], default 0.9.
  double boost_stall_ratio = 0.9;
};

// Nonsmooth Gauss-Seidel on the reduced problem u = W r + q_free
// (formulations.md §7).
struct NsgsOptions {
  // The one-contact solver of each sweep; default Alart-Curnier Newton.
  LocalSolverType local_solver = LocalSolverType::kAlartCurnierNewton;
  // Budget of sweeps for a pure NSGS solve; >= 0, default 10000.
  int max_sweeps = 10000;
  // Check the true error (fcsn/error_measures.h) every this many sweeps, and
  // whenever the cheap error ||r_{k+1} - r_k|| / ||r_{k+1}|| falls below the
  // working tolerance. >= 1, default 10.
  int error_check_frequency = 10;
  // One-contact solver: iteration budget (>= 1, default 20) and relative
  // tolerance (in (0, 1), default 1e-14).
  int local_max_iterations = 20;
  double local_tolerance = 1e-14;
  // LocalSolverType::kFixedPointViUpk: projections per contact per sweep (the
  // paper's FP-VI-UPK, nsgs/fp_vi_upk.h; local_max_iterations and
  // local_tolerance do not apply to it). >= 1; 1 by default ("one or a few").
  int fp_projections = 1;
};

// NSGS -> Newton hybrid with fallback (formulations.md §8).
struct HybridOptions {
  // NSGS sweeps before the first Newton iteration; >= 0, default 100 (the
  // masonry study's value).
  int warm_sweeps = 100;
  // The same when Solve() is given a guess (time stepping: the previous step's
  // (v, r)). A good guess puts Newton in its quadratic region at once, and NSGS
  // sweeps would cost more than the one or two Newton iterations left (and need
  // the Delassus operator); NSGS then only serves as the fallback. >= 0,
  // default 0.
  int warm_sweeps_with_guess = 0;
  // The warm start also ends, and Newton takes over, as soon as NSGS contracts
  // poorly: its error is checked every `warm_contraction_window` sweeps (or
  // more often, per NsgsOptions::error_check_frequency), and when the worst
  // measure of the criterion (max(e_cone, e_dual, e_comp, e_eq)) is not below
  // `warm_contraction_ratio` times its value at a check at least
  // `warm_contraction_window` sweeps earlier, the sweeps stop. 0 disables it.
  // Why 5 sweeps and 0.5 (an average rate of 0.87 per sweep, at which NSGS
  // would need 50 sweeps per 3 decades): Box_Stacks contracts 15x per 5 sweeps
  // and keeps its warm start (19 sweeps, then 3 Newton iterations instead of
  // 10); a LowWall_FEM step goes 0.27 -> 0.26 in 5 sweeps and 0.22 after 100
  // (100 sweeps cost 0.94 s and save no Newton iteration); generated rigid
  // piles of 8 and 16 boxes drop 5 % from sweep 5 to 10, and Newton then
  // needs 3 to 5 iterations, as after 100 sweeps.
  // Window in sweeps; >= 0, default 5.
  int warm_contraction_window = 5;
  // Required contraction over the window; in (0, 1], default 0.5.
  double warm_contraction_ratio = 0.5;
  // Newton stalls when the merit has not dropped below stall_ratio times its
  // value of `stall_window` iterations ago (counted from the first Newton step
  // of a run, whose merit may exceed the starting point's). stall_window >= 1,
  // default 5; stall_ratio in (0, 1), default 0.9.
  int stall_window = 5;
  double stall_ratio = 0.9;
  // NSGS sweeps run at each fallback before Newton restarts; >= 1, default 50.
  int fallback_sweeps = 50;
  // Number of Newton -> NSGS -> Newton fallbacks allowed in one solve; >= 0,
  // default 20.
  int max_fallbacks = 20;
  // Budget of the Delassus operator W = H^T M^-1 H that the warm start and the
  // fallbacks sweep on (formulations.md §7.1). W is formed only if the cost of
  // forming it, counted in stored entries before anything is factored, is at
  // most max(delassus_min_budget, delassus_budget_per_nonzero * (nnz(M) +
  // nnz(H))): 9 per stored 3 x 3 block of W plus 3 k_c nnz(M_c) for every
  // component c of M with k_c contacts (the solves M_c X = H_c). That bounds
  // W's memory and the time to build it. Otherwise there is no warm start
  // (Newton from the start), and the fallbacks sweep by projected Jacobi
  // (formulations.md §7.5) with the LDL^T of M that the rho computation keeps:
  // no W, no further factorization. (A non-symmetric M has no kept LDL^T: a
  // Newton failure then ends the solve.) The default policy's extra memory thus
  // stays O(nnz(M) + nnz(H)) over Newton's own. Pure NSGS (SolverType::kNsgs)
  // ignores the budget: W is all it has.
  // Why 16: the cost over nnz(M) + nnz(H) is <= 7.6 on the shared problems
  // (Box_Stacks 2.0, where the warm start saves Newton 7 of 10 iterations) and
  // on generated rigid piles (7.4 with 4 contacts per interface; 200 boxes:
  // 45 Newton iterations with the warm start, none converged in 100 without),
  // and >= 27 once a deformable body carries more than a few contacts: 270 on
  // a LowWall_FEM step (forming W takes 0.5-0.7 s, 20-30 % of pure Newton's
  // solve, and NSGS stalls there), 300 on a 10 x 10 x 2 elastic lattice, 6000
  // on a 200 x 10 x 3 bar with 2000 contacts (dense W: 180 million entries).
  double delassus_budget_per_nonzero = 16.0;
  // Why 2^20: small problems, whose W costs milliseconds, keep the warm start
  // whatever their ratio (a 6 x 5 x 2 elastic lattice with 30 contacts costs
  // 0.55 million); W's entries are then at most half the cost (9 c^2 of
  // >= 18 c^2 for c contacts on one body), 4 MB.
  long long delassus_min_budget = 1 << 20;
};

// Returned by the iteration callback.
enum class CallbackResult {
  kContinue,  // go on
  kAbort,     // stop now; the summary reports the abort in its message
};

struct SolverOptions {
  // Default: the hybrid (NSGS warm start, Newton, NSGS fallback), robust on
  // rigid problems too.
  SolverType solver = SolverType::kHybrid;
  Formulation formulation = Formulation::kAlartCurnier;
  // Converged iff max(e_cone, e_dual, e_comp, e_eq) <= tolerance
  // (fcsn/error_measures.h, formulations.md §9.1): unit-free, so the same
  // tolerance means the same accuracy in any units. Nominal 1e-4
  // (engineering) to 1e-12 (near round-off); 1e-10 by default.
  double tolerance = 1e-10;
  // Newton iterations (each one factorization of J).
  int max_iterations = 100;
  // Wall-clock budget of one Solve(), in seconds, setup included: checked
  // between the setup's stages, at every Newton iteration and before every
  // NSGS sweep, so a solve returns (status kTimeLimit, best point) within the
  // limit plus the stage or factorization of J that was running.
  double time_limit_seconds = std::numeric_limits<double>::infinity();
  // When J is singular (rank-deficient H with sticking contacts: rigid,
  // hyperstatic problems), refactorize J + delta_k E, E the identity on the
  // contact rows/columns (the B blocks), with delta_k = singular_regularization
  // * min(1, ||D G_k||): a proximal term on r whose weight vanishes with the
  // residual (Levenberg-Marquardt-like, so the local rate is kept). B = dF/dr
  // is dimensionless, so the value is unit-free. 0 disables it: a singular J
  // then ends the solve with SolverStatus::kLinearSolverFailed. Nominal 1e-8 to
  // 1e-4.
  double singular_regularization = 1e-6;
  // Starting iterate when Solve() is given no guess (ColdStart above). A
  // guess, when given, is always the start, except one that carries no
  // information: an empty Solution, or one whose v and r are all exactly 0
  // (the previous step's solution of a time-stepping code whose bodies were
  // still at rest) counts as no guess, so that this choice (and the hybrid's
  // warm_sweeps) applies. Auto by default: bonded on the gravity-settling
  // steps of walls, 1-4 Newton iterations instead of 12-100
  // (bench/results/gravity_steps.md), the resting and the approaching
  // contacts closed off rest (bench/results/cold_approaching.md). NSGS
  // (SolverType::kNsgs) starts from r = 0 whatever the choice.
  ColdStart cold_start = ColdStart::kAuto;
  // Newton directions without a new factorization: while the merit contracts
  // (||D G_k|| <= ||D G_{k-1}|| / 2) and few contacts changed their rows of J
  // since the last factorization (at most K/2 contacts by more than 1 %),
  // iteration k first solves D J_k C y = -D G_k by FGMRES preconditioned with
  // the factors of J_{k-1}, to the Eisenstat-Walker relative residual
  // eta_k <= 0.01 (an inexact Newton direction, whose true slope the line
  // search uses), in at most K inner iterations (one single-precision
  // triangular solve and one product by J each, 1/13-1/21 of a factorization
  // for n + m from 9,000 to 51,000); when FGMRES does not get there, J_k is
  // factorized as usual (newton/newton_direction.h).
  //   kAutoKrylovReuse (-1, default): K = 10 when n + m >= 5,000, off below
  //     (newton/newton_direction.cc says why): a refine-2 wall gravity step
  //     then factorizes once instead of twice, warm shear steps save ~1 of 7
  //     factorizations (688-contact wall: 153 -> 129 over 39 steps), cold
  //     steps keep their iterations within one (bench/results/krylov_reuse.md);
  //     smaller problems solve as with 0, except for the first direction of a
  //     time step below.
  //   0: off, every iteration factorizes.
  //   K in [1, 100]: on at every size with budget K.
  // Time stepping with one Solver: the first direction of a solve started
  // from a guess, right after a converged solve, may likewise use that
  // solve's last factors, when the linear solver still holds them, M and H
  // are unchanged and, up to a factor per row (rho's boost), at most K/2
  // contacts changed their rows; the forcing term is then 0.01. With
  // kAutoKrylovReuse this first direction has K = 10 at every size: steps at
  // rest then take no factorization (688-contact wall: 0.06 -> 0.02 s per
  // gravity step; refine 2: 0.6-0.8 -> 0.15-0.19 s; sliding steps change
  // too many rows and factorize as before; bench/results/warm_steps.md).
  // Ignored by the Solve() overload with M distributed (LocalMatrixEntries):
  // every iteration factorizes there.
  int krylov_reuse_iterations = kAutoKrylovReuse;
  // Threads of the setup of a problem with n >= 1000 dofs (below, a setup takes
  // a few milliseconds): with 2, on a machine with at least 2 hardware threads,
  // the pattern of J and its symbolic analysis (fill-reducing ordering, MUMPS'
  // analysis) run on a second thread while M is factorized and rho's W_aa =
  // H_a^T M^-1 H_a computed, when both are needed (a new pattern of J, and a
  // new M or H: a time step whose contacts changed overlaps J's analysis with
  // its W_aa even when M's factors are kept), and from n >= 10,000 (M's
  // supernodal Cholesky) the second thread then takes its share of the
  // remaining W_aa. At a bonded cold start (no guess, w round-off: the
  // gravity-settling steps) the second thread also factorizes J of the first
  // iterate right after its analysis, before rho exists, and the first Newton
  // direction uses those factors when they are verified to be J's up to
  // diagonal scalings (newton/early_factorization.h,
  // SolverSummary::early_factorizations_used); the results then agree with 1
  // thread to round-off, otherwise they are the same bits. The timings of the
  // second thread (J's pattern in timings.setup, its analysis in
  // timings.analysis, the early factorization in timings.factorization) overlap
  // the first's, so the timings may add up to more than timings.total (the wall
  // time). While the two threads run, a threaded OpenBLAS is asked for one
  // thread and the caller's setting is restored after them (process-wide;
  // linalg/blas_threads.h): with OpenBLAS' default of one thread per core the
  // two setup threads' BLAS calls queued for its pool, 3.0 s against 1.24 s per
  // refine-2 gravity step on 2 cores (bench/results/blas_threads.md).
  // In [1, 2]. Default 2: on an idle machine the refine-2 gravity steps took
  // 2.04 -> 1.46 s with 1 BLAS thread and 1.78 -> 1.65 s with 2, the
  // 688-contact walls (n = 7205) a median 0.885 -> 0.761 s
  // (bench/results/setup_cost.md); set 1 when the caller already keeps every
  // core busy.
  int setup_threads = 2;
  RhoOptions rho;
  LineSearchOptions line_search;
  LinearSolverOptions linear_solver;
  NsgsOptions nsgs;
  HybridOptions hybrid;
  // Keep one IterationRecord per iteration in the summary.
  bool record_history = true;
  // Called after every iteration (Newton or NSGS check); may abort the solve.
  // Optional.
  std::function<CallbackResult(const IterationRecord&)> iteration_callback;
  // A stop request the caller may raise from any thread, or from a signal
  // handler (a lock-free std::atomic<bool> store is async-signal-safe): once
  // it reads true the solve ends at its next check with
  // SolverStatus::kAborted, a message saying it was stopped, and the best
  // point so far (the starting point when no iterate was recorded yet).
  // Checked between the stages of the setup (before and after J's symbolic
  // analysis, before the NSGS operator is built), at every Newton iteration
  // and at every NSGS error check (NsgsOptions::error_check_frequency
  // sweeps); a stage that is running (M's factorization and rho, J's
  // analysis, one factorization of J) is finished first. The solver only
  // reads it; the caller owns it and clears it before the next solve.
  // nullptr (default): none. Solver::RequestStop() is the same without a
  // flag of one's own.
  const std::atomic<bool>* stop = nullptr;
  // Progress log: when set, called with one line (no newline) at the end of
  // the setup, at the start of each phase (NSGS warm start or fallback,
  // Newton), after every Newton iteration and NSGS error check (iteration,
  // e_cone, e_dual, e_comp, e_eq, merit, step length, take-off/stick/slip
  // counts, seconds since the start) and at the end. Called on the thread
  // that runs Solve(). Null by default: the library never prints on its own.
  std::function<void(const std::string&)> log;

  // "" if every field is in range, otherwise one readable sentence naming the
  // field.
  std::string Validate() const;
};

const char* ToString(LineSearchFailurePolicy x);
const char* ToString(ColdStart x);
const char* ToString(CallbackResult x);
inline std::optional<LineSearchFailurePolicy> LineSearchFailurePolicyFromString(
    std::string_view s) {
  return FromStringIn(kAllLineSearchFailurePolicies, s);
}
inline std::optional<ColdStart> ColdStartFromString(std::string_view s) {
  return FromStringIn(kAllColdStarts, s);
}

}  // namespace fcsn

#endif  // FCSN_OPTIONS_H_
