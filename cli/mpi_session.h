// The `fcsn` command's MPI session: with the mpi flavour
// (fcsn/config.h: FCSN_WITH_MPI = 1), MPI_Init when main() starts and
// MPI_Finalize when it returns, so that the same command runs under mpirun:
//   mpirun -np 2 fcsn solve FILE --json
// Every rank reads the input file itself (the file system is shared) and
// runs the same solve; MUMPS distributes the factorization over the ranks
// (linalg/mumps_comm.h). Only the host (rank 0) prints and writes files: the
// other ranks' stdout and stderr go to /dev/null.
// With the seq flavour the session does nothing and every process is a host.
//
// Usage, first line of main() (before any solver exists, so that every MUMPS
// instance is destroyed before MPI_Finalize):
//   fcsn::cli::MpiSession session(&argc, &argv);
//   if (!session.is_host()) { /* do not write files */ }
#ifndef FCSN_CLI_MPI_SESSION_H_
#define FCSN_CLI_MPI_SESSION_H_

namespace fcsn::cli {

class MpiSession {
 public:
  MpiSession(int* argc, char*** argv);
  ~MpiSession();
  MpiSession(const MpiSession&) = delete;
  MpiSession& operator=(const MpiSession&) = delete;

  // True on rank 0 of MPI_COMM_WORLD (and always in the seq flavour).
  static bool is_host();
  // Processes in MPI_COMM_WORLD (1 in the seq flavour).
  static int size();
  // This process' rank in MPI_COMM_WORLD (0 in the seq flavour).
  static int rank();
};

}  // namespace fcsn::cli

#endif  // FCSN_CLI_MPI_SESSION_H_
