// GoogleTest main of the mpi flavour (FCSN_MUMPS=mpi): every test executable
// links it instead of gtest_main, so that it runs alone (one process) or under
//   mpirun -np 2 tests/<name>
// MPI_Init before the tests (the MUMPS backend needs it), MPI_Finalize after.
// Rank 0 prints GoogleTest's usual report; the other ranks print only their
// failed assertions, prefixed by their rank. The exit code is the worst over
// the ranks, so a failure on any rank fails the run on every rank.
#include <gtest/gtest.h>
#include <mpi.h>

#include <cstdio>

namespace {

class RankFailurePrinter : public ::testing::EmptyTestEventListener {
 public:
  explicit RankFailurePrinter(int rank) : rank_(rank) {}
  void OnTestPartResult(const ::testing::TestPartResult& result) override {
    if (!result.failed()) return;
    std::fprintf(stderr,
                 "[rank %d] %s:%d: failure\n%s\n",
                 rank_,
                 result.file_name() ? result.file_name() : "?",
                 result.line_number(),
                 result.summary());
  }

 private:
  int rank_;
};

}  // namespace

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  ::testing::InitGoogleTest(&argc, argv);
  int rank = 0;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  if (rank != 0) {
    ::testing::TestEventListeners& listeners =
        ::testing::UnitTest::GetInstance()->listeners();
    delete listeners.Release(listeners.default_result_printer());
    listeners.Append(new RankFailurePrinter(rank));
  }
  int result = RUN_ALL_TESTS();
  MPI_Allreduce(MPI_IN_PLACE, &result, 1, MPI_INT, MPI_MAX, MPI_COMM_WORLD);
  MPI_Finalize();
  return result;
}
