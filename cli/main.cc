// `fcsn`: command line front end of the library. Dispatches to the subcommands
// declared in cli/commands.h; runs under mpirun with the mpi flavour
// (cli/mpi_session.h). Exit codes: see cli/cli_util.h (0 ok, 1 not
// converged, 2 bad input).
#include <CLI/CLI.hpp>
#include <exception>
#include <iostream>
#include <string>

#include "cli/cli_util.h"
#include "cli/commands.h"
#include "cli/mpi_session.h"

int main(int argc, char** argv) {
  // First: MPI_Init under the mpi flavour, MPI_Finalize after every solver is
  // gone (cli/mpi_session.h).
  const fcsn::cli::MpiSession session(&argc, &argv);
  fcsn::cli::PrepareProcess();
  CLI::App app{"fcsn: global frictional contact problems in FCLib notation"};
  app.require_subcommand(1);
  app.failure_message([](const CLI::App*, const CLI::Error& e) {
    return std::string("fcsn: ") + e.what() + " (run with --help for usage)\n";
  });

  fcsn::cli::RegisterVersionFlag(app);
  // Subcommands, one line each.
  fcsn::cli::RegisterInfoCommand(app);
  fcsn::cli::RegisterCheckCommand(app);
  fcsn::cli::RegisterSolveCommand(app);
  fcsn::cli::RegisterOptionsCommand(app);

  try {
    app.parse(argc, argv);
  } catch (const CLI::ParseError& e) {
    const int code = app.exit(e);
    const bool usage_error = e.get_name() != "RuntimeError" && code != 0;
    return usage_error ? fcsn::cli::kExitBadInput : code;
  } catch (const std::exception& e) {
    std::cerr << "fcsn: " << e.what() << std::endl;
    return fcsn::cli::kExitBadInput;
  }
  return fcsn::cli::kExitOk;
}
