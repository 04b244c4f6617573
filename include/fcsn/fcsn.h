// fcsn/fcsn.h: umbrella header of the public API.
#ifndef FCSN_FCSN_H_
#define FCSN_FCSN_H_

#include "fcsn/build_info.h"
#include "fcsn/contact_status.h"
#include "fcsn/error_measures.h"
#include "fcsn/fclib_io.h"
#include "fcsn/linear_solver_options.h"
#include "fcsn/options.h"
#include "fcsn/problem.h"
#include "fcsn/problem_view.h"
#include "fcsn/solver.h"
#include "fcsn/summary.h"
#include "fcsn/time_stepping.h"
#include "fcsn/types.h"

#endif  // FCSN_FCSN_H_
