// fcsn/fclib_io.h: read and write FCLib global problems (HDF5), their solution
// and guesses.
//
// File layout (FCLib 3.1, formulations.md §1.4; no format/version attribute):
//
//   /fclib_global/spacedim               int32[1] = 3
//   /fclib_global/{M,H}/{m,n,nz,nzmax}   int32[1] each: rows, columns,
//                                        storage, capacity (nzmax is ignored)
//   /fclib_global/{M,H}/{i,p,x}          storage given by nz:
//     nz >= 0   triplets, nz entries, i = ROW, p = COLUMN, 0-based (CSparse
//               convention; the comment in Debian's fclib.h swaps the two).
//               Duplicates are summed, explicit zeros kept as structural
//               entries.
//     nz == -1  CSC: p = n+1 column pointers, i = row indices
//     nz == -2  CSR: p = m+1 row pointers, i = column indices
//   /fclib_global/vectors/{f, w, mu}     float64[n], [m], [nc]; m = 3 nc
//   /fclib_global/info/{title, description, math_info}   strings, optional
//   /fclib_global/G, vectors/b           equality constraints: the file is
//                                        rejected (not supported yet)
//   /solution/{v, u, r}                  optional; float64[n], [m], [m]
//   /guesses/number_of_guesses           int32[1]; then /guesses/<k>/{v,u,r},
//                                        k = 1..number_of_guesses
//
// M stored as its upper triangle (LMGC90 files, formulations.md §10.9): a
// square M whose nonzero values all lie on or above the diagonal, with at least
// one strictly above, is reported in FclibFileInfo::m_upper_triangular.
// MStorage::kAuto and kSymmetrized then use U + U^T - diag(U); kAsStored keeps
// the triangle (what Siconos solves).
//
// Errors: every function returns false and sets *error to ONE line that names
// the file and what is wrong ("<path>: <what>"). It never prints, aborts or
// leaks on a malformed or truncated file: HDF5's automatic error printing is
// switched off for the duration of each call and the caller's handler is
// restored afterwards. That handler is process-wide HDF5 state, so these
// functions must not run concurrently with other HDF5 users.
//
// Hostile files: a file of S bytes is read or rejected within O(S) memory.
// Every dataset's extent is checked against the bytes the file stores for it
// (at most deflate's 1032:1 expansion for chunked data, plus at most S bytes
// never written, which read as the fill value) before it is read; the declared
// sizes of M and H are checked against f, w and mu before a matrix is
// allocated; raw data kept in an external file is refused; integer fields are
// read as 64-bit and reported as stored (never clamped). An M with a zero row
// or column (e.g. nz = 0) is singular and rejected.
//
// What the library cannot guarantee: libhdf5 itself (1.10) can crash
// (SIGSEGV in H5Dread, H5Lexists) on some corrupted files, before fcsn sees
// any data. A program that reads untrusted files must contain that, e.g. by
// reading in a child process or under a fatal-signal handler; the `fcsn`
// command does the latter (cli/crash_guard.h: exit 2 with one line).
//
// Zero contacts: GlobalProblem::Validate() accepts nc = 0 (an ordinary input),
// but the reader rejects a file whose H has no columns (an FCLib file without
// contacts is a broken export), and the writer refuses to write one, so that
// everything it writes can be read back.
//
// Usage:
//   fcsn::GlobalProblem problem;
//   fcsn::FclibFileInfo info;
//   std::string error;
//   if (!fcsn::ReadGlobalProblem(path, {}, &problem, &info, &error)) {
//     ...  // error == "<path>: dataset /fclib_global/vectors/f is missing"
//   }
//
// libfclib (Debian libfclib-dev 3.1.0) is not used: on a file missing a dataset
// its fclib_read_global prints the HDF5 error stack and calls exit(1), and it
// reads whole datasets into buffers sized from the header counts. It serves
// only as an oracle in tests/problem/fclib_oracle_test.cc.
#ifndef FCSN_FCLIB_IO_H_
#define FCSN_FCLIB_IO_H_

#include <string>
#include <vector>

#include "fcsn/problem.h"
#include "fcsn/types.h"

namespace fcsn {

struct ReadOptions {
  // Which M to use when the file stores only the upper triangle of a symmetric
  // M.
  MStorage m_storage = MStorage::kAuto;
};

// What the reader saw in the file (for `fcsn info` and logs).
struct FclibFileInfo {
  std::string m_format;             // "triplet", "csc" or "csr"
  std::string h_format;             // same for H
  bool m_upper_triangular = false;  // M stored as an upper triangle (see above)
  bool m_symmetrized =
      false;              // problem.M = U + U^T - diag(U) was built from it
  long m_stored_nnz = 0;  // entries stored in the file for M (nz or p[last])
  long h_stored_nnz = 0;  // same for H
  long m_explicit_zeros = 0;  // entries of M (after summing) equal to 0
  long h_explicit_zeros = 0;  // same for H
  long duplicates_summed =
      0;              // stored (row, column) pairs met more than once, M and H
  std::string title;  // /fclib_global/info strings, non-printable bytes as '?'
  std::string description;
  std::string math_info;
  bool has_solution = false;  // /solution group present
  int number_of_guesses = 0;  // /guesses/number_of_guesses (0 if absent)
};

// Reads /fclib_global into *problem (which then passes Validate()) and fills
// *info if non-null.
bool ReadGlobalProblem(const std::string& path,
                       const ReadOptions& options,
                       GlobalProblem* problem,
                       FclibFileInfo* info,
                       std::string* error);

// Reads /solution: v (n) and r (m) are required, u (m) is optional (left empty
// when absent; it is redundant, u = H^T v + w). n and m are the sizes of the
// problem the solution belongs to.
bool ReadSolution(const std::string& path,
                  int n,
                  int m,
                  Solution* solution,
                  std::string* error);

// Reads every /guesses/<k> (same rules as ReadSolution). No /guesses group:
// empty, true.
bool ReadGuesses(const std::string& path,
                 int n,
                 int m,
                 std::vector<Solution>* guesses,
                 std::string* error);

// Strings of /fclib_global/info written by WriteGlobalProblem.
struct WriteOptions {
  std::string title;
  std::string description;
  std::string math_info = "unknown";
};

// Writes the problem with M and H as triplets (nz = nnz, nzmax = nnz; Siconos
// reads only triplets reliably), plus /solution and /guesses when given. The
// problem must pass Validate() and have nc >= 1; solution and guesses must
// have v of size n and r of size m, and u of size m or empty (then H^T v + w is
// written). Reading the file back gives identical M (same pattern, incl.
// explicit zeros), H, f, w, mu, v, u, r.
//
// Atomic: the data go to a new temporary file beside path (same directory,
// hence same file system), which is flushed (fsync) and then renamed over
// path. On any failure (full disk, quota, I/O error) the temporary file is
// removed and path is left as it was: absent, or with its previous content.
// A symbolic link at path is followed (its target is replaced). A new file
// gets mode 0666 minus the umask; a replaced file keeps its mode.
bool WriteGlobalProblem(const std::string& path,
                        const GlobalProblem& problem,
                        const Solution* solution,
                        const std::vector<Solution>* guesses,
                        std::string* error,
                        const WriteOptions& options = WriteOptions());

}  // namespace fcsn

#endif  // FCSN_FCLIB_IO_H_
