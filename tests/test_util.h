// Shared helpers for fcsn's tests: paths to the shared data and relative-error
// comparisons.
#ifndef FCSN_TESTS_TEST_UTIL_H_
#define FCSN_TESTS_TEST_UTIL_H_

#include <Eigen/Core>
#include <string>

namespace fcsn::testing {

// Every problem file of ../shared/data/gfc3d (its README describes each).
inline constexpr const char* kSharedProblemFiles[] = {
    "GFC3D_Example00.hdf5",
    "GFC3D_Example00_badly_scaled.hdf5",
    "GFC3D_Example0.hdf5",
    "GFC3D_Example1.hdf5",
    "GFC3D_OneContact.hdf5",
    "GFC3D_TwoRods1.hdf5",
    "CubeH8.hdf5",
    "Box_Stacks-i0122-82-5.hdf5"};

// Absolute path of ../shared/data/gfc3d (the bundled FCLib problems).
std::string SharedDataDir();
// Absolute path of a file in the shared gfc3d folder.
std::string SharedProblem(const std::string& file_name);
// A fresh, empty temporary directory for this test process (created on first
// use).
std::string TempDir();

// A gtest parameter name from a problem file name: the part before the first
// '.', with every character that is not a letter or digit replaced by '_'
// ("Box_Stacks-i0122-82-5.hdf5" -> "Box_Stacks_i0122_82_5").
std::string TestNameFromFile(const std::string& file_name);

// ||a - b|| / max(||a||, ||b||, tiny): symmetric relative distance, 0 for two
// zero vectors.
double RelativeDistance(const Eigen::Ref<const Eigen::MatrixXd>& a,
                        const Eigen::Ref<const Eigen::MatrixXd>& b);

// The round-off floor s_eps of the criterion (fcsn/error_measures.h) by dense
// linear algebra, sharing only the definition with the library:
// c eps || |H^T| |x| || with x = M^-1 b when a full-pivoting LU of M has a
// reciprocal condition above n eps, else x_i = b_i / |M_ii| (0 where
// M_ii = 0); b = |M||v| + |H||r| + |f|.
double DenseVelocityFloor(const Eigen::MatrixXd& M,
                          const Eigen::MatrixXd& H,
                          const Eigen::VectorXd& b);

}  // namespace fcsn::testing

#endif  // FCSN_TESTS_TEST_UTIL_H_
