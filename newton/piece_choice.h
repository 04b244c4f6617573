// newton/piece_choice.h: the tangential pieces of Newton's next linear model
// for the disk formulations (Alart-Curnier, Jean-Moreau; DiskPiece in
// formulations/residual.h). Semismooth Newton takes each contact's piece at
// the iterate z_k; in a run from a guess (the previous time step's answer),
// two rules, both read from the last step dz = z_k - z_{k-1}, choose
// otherwise:
//
//   reversal   a contact the last model held on its slip piece that is on
//              its slip piece again, with s_T(z_k) . s_T(z_{k-1}) < 0, gets
//              its stick piece. Its model slid it against its own friction
//              (the slip multiplier came out negative: the sign rule of
//              primal-dual active sets), so it sticks; by point, under a
//              boosted rho, it would slip backwards next and a slip front
//              that overshot would not retreat.
//   look-ahead while a front moves: the worst measure > kLookAheadError, the
//              merit has not risen, and the point has more slips than
//              z_{k-1} had; then every contact sticking at z_k but slipping
//              at z_k + dz (the last step once more) gets its slip piece,
//              unless they outnumber the slips the last step itself added
//              (#slips(z_k) - #slip pieces of the last model): the model
//              then would move the front further than the step did. A
//              look-ahead followed by a rising merit ends them for the run.
//
// Why a look-ahead pays: a sticking contact is rigid in Newton's model, so
// the load a step adds piles up within about a body thickness ahead of the
// front, and each iteration moves the front by a fixed fraction (0.6-0.7 on
// the pushed 3D blocks) of what remains: the count per step grows with
// log(front travel / mesh size). The contacts that z_k + dz puts outside
// their disk are those the next step would switch after this one.
//
// Why only from a guess: from a cold start the first step is no load
// increment (it builds the whole answer), and the first iterates' slip
// directions still wander. There a look-ahead cost 2-3 iterations on 4 of
// the 50 cold walls, and the reversal rule stuck GFC3D_OneContact's one
// slipping contact for an iteration (7 -> 9) and Box_Stacks (pure AC from
// zero, 8 -> 13), though it shortened the sliding lattice's (9 -> 4).
// bench/results/fronts.md has the measurements.
#ifndef FCSN_NEWTON_PIECE_CHOICE_H_
#define FCSN_NEWTON_PIECE_CHOICE_H_

#include <Eigen/Core>
#include <vector>

#include "formulations/residual.h"

namespace fcsn::internal {

// The worst error measure (fcsn/error_measures.h, unit-free) above which the
// look-ahead applies. The pushed blocks' front iterations have e_cone 1e-2 to
// 0.14; below, Newton's tail converges on its own, and a look-ahead there
// flips contacts near the disk's edge (the 5313-contact block's step 8 took
// 31 iterations instead of 9 without this bound).
inline constexpr double kLookAheadError = 1e-2;

class PieceChoice {
 public:
  // A new Newton run; the rules apply to runs from a guess (warm_started).
  void Start(bool warm_started);
  // Whether the rules apply to this run (one from a guess).
  bool active() const { return warm_started_; }
  // Forgets the last step (a restart, a sweep).
  void Reset();
  // At z_k: the point's pieces and s_T (ClassifyDiskPieces), its merit and
  // worst measure. Applies the reversal rule; true when the look-ahead
  // applies and wants LookAhead() with the pieces at z_k + last_step().
  bool Begin(const std::vector<DiskPiece>& at_point,
             const Eigen::VectorXd& s_t,
             double merit,
             double worst);
  // at_point: Begin()'s.
  void LookAhead(const std::vector<DiskPiece>& at_point,
                 const std::vector<DiskPiece>& ahead);
  // The pieces of the next model, or nullptr when they are the point's own.
  const DiskPiece* Prescribed() const {
    return prescribed_ ? model_.data() : nullptr;
  }
  // The step just taken, z_{k+1} - z_k, from the model of Prescribed().
  void StepTaken(const Eigen::VectorXd& step);
  const Eigen::VectorXd& last_step() const { return step_; }

 private:
  bool warm_started_ = false;
  bool has_step_ = false;
  Eigen::VectorXd step_;
  std::vector<DiskPiece> model_;  // those of the next model
  std::vector<DiskPiece> used_;   // those of the last model
  Eigen::VectorXd s_t_previous_;  // s_T at z_{k-1}
  int used_slips_ = 0;            // slip pieces in used_
  int previous_slips_ = 0;        // slips at z_{k-1}
  int advance_ = 0;               // slips the last step added
  double previous_merit_ = 0.0;
  bool prescribed_ = false;
  bool looked_ahead_ = false;  // the last model came from a look-ahead
  bool look_ahead_off_ = false;
};

}  // namespace fcsn::internal

#endif  // FCSN_NEWTON_PIECE_CHOICE_H_
