// sliding_point.h: one sliding point mass solved by fcsn (sliding_point.cc). No fcsn header here,
// so that a program calling it through a shared library (plugin/) needs none either.
#ifndef FCSN_CONSUMER_SLIDING_POINT_H_
#define FCSN_CONSUMER_SLIDING_POINT_H_

// Solves the problem with fcsn::Solver, prints the result; true if it is the expected one.
bool SolveSlidingPoint();

#endif  // FCSN_CONSUMER_SLIDING_POINT_H_
