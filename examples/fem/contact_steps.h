// fem/contact_steps.h: the pieces every time-stepping FE example repeats
// around fcsn's solve of a step (masonry_wall, elastic_bar):
//
//   a step's solution usable     v (n entries) and r (m) finite, u empty or m
//   a contact's state            open   r_N <= open_tolerance max_b r_N,b
//                                slip   ||r_T|| >= (1 - slip_tolerance) mu r_N
//                                stick  otherwise (closed, inside the cone)
//   the run's outputs            a directory created, a log file opened
#ifndef FCSN_EXAMPLES_FEM_CONTACT_STEPS_H_
#define FCSN_EXAMPLES_FEM_CONTACT_STEPS_H_

#include <Eigen/Core>
#include <fstream>
#include <string>

#include "fcsn/problem.h"

namespace fcsn::fem {

// "" when `solution` can advance a model of n dofs and m contact rows, else
// one sentence starting with `who` (e.g. "MasonryWall::Advance").
std::string WhyUnusableStep(const std::string& who,
                            const Solution& solution,
                            int n,
                            int m);

enum class ContactState { kOpen, kStick, kSlip };

// The largest normal impulse r_N over the contacts of r (3 entries each; 0
// for none or when every r_N <= 0).
double MaxNormalImpulse(const Eigen::VectorXd& r);

// The state of one contact's impulse r = (r_N, r_T1, r_T2) with coefficient
// mu, given max_rn = MaxNormalImpulse of the step (header comment).
ContactState ClassifyContact(const Eigen::Vector3d& r,
                             double mu,
                             double max_rn,
                             double open_tolerance,
                             double slip_tolerance);

// Creates `dir` and its parents ("" does nothing); "" or why not.
std::string CreateOutputDirectory(const std::string& dir);
// Opens `path` for writing into *log; "" or why not.
std::string OpenLog(const std::string& path, std::ofstream* log);

}  // namespace fcsn::fem

#endif  // FCSN_EXAMPLES_FEM_CONTACT_STEPS_H_
