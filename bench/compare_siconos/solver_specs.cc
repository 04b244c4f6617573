// solver_specs.cc: see solver_specs.h.
#include "solver_specs.h"

namespace fcsn_bench {

const std::vector<SolverSpec>& AllSolvers() {
  static const std::vector<SolverSpec> solvers = {
      {"sic-nsn-jm",
       Family::kSiconos,
       SiconosMethod::kNsnJm,
       SolverSpec::FcsnKind::kDefault,
       "Siconos GFC3D_NSN_AC, default formulation (JM_STD), default options"},
      {"sic-nsn-ac",
       Family::kSiconos,
       SiconosMethod::kNsnAc,
       SolverSpec::FcsnKind::kDefault,
       "Siconos GFC3D_NSN_AC, iparam[10] = ALARTCURNIER_STD"},
      {"sic-nsgs-wr",
       Family::kSiconos,
       SiconosMethod::kNsgsWr,
       SolverSpec::FcsnKind::kDefault,
       "Siconos GFC3D_NSGS_WR (explicit W = H^T M^-1 H, fc3d_nsgs)"},
      {"sic-admm",
       Family::kSiconos,
       SiconosMethod::kAdmm,
       SolverSpec::FcsnKind::kDefault,
       "Siconos GFC3D_ADMM, default options"},
      {"fcsn-nsn-ac",
       Family::kFcsn,
       SiconosMethod::kNsnJm,
       SolverSpec::FcsnKind::kNewtonAc,
       "fcsn Newton, formulation ac, cold_start zero (otherwise default "
       "options)"},
      {"fcsn-nsn-jm",
       Family::kFcsn,
       SiconosMethod::kNsnJm,
       SolverSpec::FcsnKind::kNewtonJm,
       "fcsn Newton, formulation jm, cold_start zero (otherwise default "
       "options)"},
      {"fcsn-nsn-ac-rest",
       Family::kFcsn,
       SiconosMethod::kNsnJm,
       SolverSpec::FcsnKind::kNewtonAcAtRest,
       "fcsn Newton, formulation ac, cold_start auto (bonded at rest; off "
       "rest the resting and the approaching contacts start closed)"},
      {"fcsn-default",
       Family::kFcsn,
       SiconosMethod::kNsnJm,
       SolverSpec::FcsnKind::kDefault,
       "fcsn::SolverOptions() as is"},
  };
  return solvers;
}

fcsn::SolverOptions FcsnOptions(SolverSpec::FcsnKind kind) {
  fcsn::SolverOptions o;  // defaults as is
  switch (kind) {
    case SolverSpec::FcsnKind::kNewtonAc:
      o.solver = fcsn::SolverType::kNewton;
      o.formulation = fcsn::Formulation::kAlartCurnier;
      o.cold_start = fcsn::ColdStart::kZero;  // as recorded; -rest: auto
      break;
    case SolverSpec::FcsnKind::kNewtonAcAtRest:
      o.solver = fcsn::SolverType::kNewton;
      o.formulation = fcsn::Formulation::kAlartCurnier;
      o.cold_start = fcsn::ColdStart::kAuto;
      break;
    case SolverSpec::FcsnKind::kNewtonJm:
      o.solver = fcsn::SolverType::kNewton;
      o.formulation = fcsn::Formulation::kJeanMoreau;
      o.cold_start = fcsn::ColdStart::kZero;
      break;
    case SolverSpec::FcsnKind::kDefault:
      break;
  }
  return o;
}

const SolverSpec* FindSolver(const std::string& name) {
  const SolverSpec* spec = nullptr;
  for (const SolverSpec& k : AllSolvers()) {
    if (k.name == name) spec = &k;
  }
  return spec;
}

}  // namespace fcsn_bench
