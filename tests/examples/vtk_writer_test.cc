// Tests of examples/masonry_wall/vtk_writer.h and masonry_vtk.h: files are
// written, read back by a small parser here (counts, values, .pvd entries),
// checked NaN-free, and parsed as XML by python3's xml.etree when python3 is
// available; invalid grids are refused.
#include "vtk_writer.h"

#include <gtest/gtest.h>

#include <cmath>
#include <cstdlib>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include "masonry_vtk.h"
#include "masonry_wall_model.h"
#include "test_util.h"

namespace fcsn::vtk {
namespace {

std::string Slurp(const std::string& path) {
  std::ifstream in(path);
  std::stringstream s;
  s << in.rdbuf();
  return s.str();
}

// Value of attribute `name` in the first tag that starts with `tag`.
std::string Attribute(const std::string& xml,
                      const std::string& tag,
                      const std::string& name,
                      size_t from = 0) {
  const size_t start = xml.find("<" + tag, from);
  if (start == std::string::npos) return "";
  const size_t end = xml.find('>', start);
  const std::string element = xml.substr(start, end - start);
  const size_t at = element.find(" " + name + "=\"");
  if (at == std::string::npos) return "";
  const size_t value = at + name.size() + 3;
  return element.substr(value, element.find('"', value) - value);
}

// The numbers of the DataArray named `name`; empty if absent.
std::vector<double> ArrayValues(const std::string& xml,
                                const std::string& name) {
  const size_t at = xml.find("Name=\"" + name + "\"");
  if (at == std::string::npos) return {};
  const size_t begin = xml.find('>', at) + 1;
  const size_t end = xml.find("</DataArray>", begin);
  std::istringstream in(xml.substr(begin, end - begin));
  std::vector<double> values;
  std::string token;
  while (in >> token) values.push_back(std::strtod(token.c_str(), nullptr));
  return values;
}

// Every DataArray's text parses as finite numbers (no "nan", "inf").
bool AllNumbersFinite(const std::string& xml) {
  for (size_t at = xml.find("<DataArray"); at != std::string::npos;
       at = xml.find("<DataArray", at + 1)) {
    const size_t begin = xml.find('>', at) + 1;
    const size_t end = xml.find("</DataArray>", begin);
    std::istringstream in(xml.substr(begin, end - begin));
    std::string token;
    while (in >> token) {
      char* stop = nullptr;
      const double x = std::strtod(token.c_str(), &stop);
      if (*stop != '\0' || !std::isfinite(x)) return false;
    }
  }
  return true;
}

// python3's XML parser accepts the file (true when python3 is missing: the
// in-test parser then is the only check).
bool ValidXml(const std::string& path) {
  if (std::system("python3 -c 'import xml.etree.ElementTree' 2>/dev/null") !=
      0) {
    return true;
  }
  const std::string command =
      "python3 -c 'import sys, xml.etree.ElementTree as E; "
      "E.parse(sys.argv[1])' '" +
      path + "'";
  return std::system(command.c_str()) == 0;
}

// Two unit hexahedra side by side along x, 12 points.
UnstructuredGrid TwoCubes() {
  UnstructuredGrid grid;
  for (int k = 0; k < 2; ++k) {
    for (int j = 0; j < 2; ++j) {
      for (int i = 0; i < 3; ++i) grid.points.emplace_back(i, j, k);
    }
  }
  auto id = [](int i, int j, int k) { return i + 3 * (j + 2 * k); };
  for (int c = 0; c < 2; ++c) {
    grid.AddCell(kVtkHexahedron,
                 {id(c, 0, 0),
                  id(c + 1, 0, 0),
                  id(c + 1, 1, 0),
                  id(c, 1, 0),
                  id(c, 0, 1),
                  id(c + 1, 0, 1),
                  id(c + 1, 1, 1),
                  id(c, 1, 1)});
  }
  DataArray displacement{"displacement", 3, {}};
  for (const Eigen::Vector3d& p : grid.points) {
    displacement.values.insert(displacement.values.end(),
                               {0.1 * p.x(), -1e-7 * p.y(), 1.0 / 3.0});
  }
  grid.point_data.push_back(displacement);
  grid.cell_data.push_back({"block", 1, {0.0, 1.0}});
  return grid;
}

TEST(VtkWriterTest, WritesAGridThatReadsBack) {
  const std::string path = testing::TempDir() + "/two_cubes.vtu";
  std::string error;
  ASSERT_TRUE(WriteVtu(path, TwoCubes(), &error)) << error;
  const std::string xml = Slurp(path);
  EXPECT_EQ(Attribute(xml, "VTKFile", "type"), "UnstructuredGrid");
  EXPECT_EQ(Attribute(xml, "Piece", "NumberOfPoints"), "12");
  EXPECT_EQ(Attribute(xml, "Piece", "NumberOfCells"), "2");
  EXPECT_TRUE(AllNumbersFinite(xml));
  EXPECT_TRUE(ValidXml(path));

  const std::vector<double> points = ArrayValues(xml, "Points");
  ASSERT_EQ(points.size(), 36u);
  EXPECT_EQ(points[3 * 5 + 0], 2.0);  // point 5 = (2, 1, 0)
  EXPECT_EQ(points[3 * 5 + 1], 1.0);
  const std::vector<double> u = ArrayValues(xml, "displacement");
  ASSERT_EQ(u.size(), 36u);
  EXPECT_EQ(u[3 * 4 + 1], -1e-7);  // exact round trip (17 digits)
  EXPECT_EQ(u[3 * 4 + 2], 1.0 / 3.0);
  EXPECT_EQ(ArrayValues(xml, "block"), (std::vector<double>{0.0, 1.0}));
  EXPECT_EQ(ArrayValues(xml, "offsets"), (std::vector<double>{8.0, 16.0}));
  EXPECT_EQ(ArrayValues(xml, "types"), (std::vector<double>{12.0, 12.0}));
  const std::vector<double> connectivity = ArrayValues(xml, "connectivity");
  ASSERT_EQ(connectivity.size(), 16u);
  EXPECT_EQ(connectivity[8], 1.0);    // second cube starts at point (1, 0, 0)
  EXPECT_EQ(connectivity[14], 11.0);  // its corner (2, 1, 1)
}

TEST(VtkWriterTest, RefusesNonFiniteAndInconsistentData) {
  const std::string path = testing::TempDir() + "/bad.vtu";
  std::string error;
  UnstructuredGrid nan_values = TwoCubes();
  nan_values.point_data[0].values[7] = std::nan("");
  EXPECT_FALSE(WriteVtu(path, nan_values, &error));
  EXPECT_NE(error.find("non-finite"), std::string::npos) << error;
  UnstructuredGrid short_array = TwoCubes();
  short_array.cell_data[0].values.pop_back();
  EXPECT_FALSE(WriteVtu(path, short_array, &error));
  UnstructuredGrid bad_index = TwoCubes();
  bad_index.connectivity[3] = 12;
  EXPECT_FALSE(WriteVtu(path, bad_index, &error));
  EXPECT_FALSE(WriteVtu("/nonexistent-dir/x.vtu", TwoCubes(), &error));
}

TEST(VtkWriterTest, PvdListsTheSteps) {
  const std::string path = testing::TempDir() + "/series.pvd";
  PvdCollection series;
  series.Add(0.001, "wall_00001.vtu");
  series.Add(0.002, "wall_00002.vtu");
  std::string error;
  ASSERT_TRUE(series.Write(path, &error)) << error;
  const std::string xml = Slurp(path);
  EXPECT_TRUE(ValidXml(path));
  EXPECT_EQ(Attribute(xml, "VTKFile", "type"), "Collection");
  const size_t second = xml.find("<DataSet", xml.find("<DataSet") + 1);
  EXPECT_EQ(Attribute(xml, "DataSet", "file"), "wall_00001.vtu");
  EXPECT_EQ(Attribute(xml, "DataSet", "file", second), "wall_00002.vtu");
  EXPECT_EQ(std::stod(Attribute(xml, "DataSet", "timestep", second)), 0.002);
  series.Add(0.003, "a&b.vtu");
  EXPECT_FALSE(series.Write(path, &error));
}

// Two coarse-wall steps: counts match the model, the contact impulses are
// those of the solution handed to Advance, and the .pvd lists both steps.
TEST(MasonryVtkTest, WritesTheWallAndItsContactsPerStep) {
  std::string error;
  auto wall =
      masonry::MasonryWall::Create(masonry::WallOptions::Coarse(), &error);
  ASSERT_NE(wall, nullptr) << error;
  const std::string dir = testing::TempDir();
  masonry::MasonryVtkSeries series(dir);
  Solution x;
  for (int k = 0; k < 2; ++k) {
    x.v = Eigen::VectorXd::Constant(wall->n(), 1e-3 * (k + 1));
    x.u = Eigen::VectorXd::Zero(wall->m());
    x.r = Eigen::VectorXd::Zero(wall->m());
    x.r[0] = 2.0;  // contact 0 pressed, sticking
    ASSERT_TRUE(wall->Advance(x, &error)) << error;
    ASSERT_TRUE(series.WriteStep(*wall, &error)) << error;
  }
  const std::string mesh = Slurp(dir + "/wall_00002.vtu");
  EXPECT_EQ(std::stoi(Attribute(mesh, "Piece", "NumberOfPoints")),
            static_cast<int>(wall->nodes().size()));
  EXPECT_EQ(std::stoi(Attribute(mesh, "Piece", "NumberOfCells")),
            wall->num_elements());
  EXPECT_TRUE(AllNumbersFinite(mesh));
  EXPECT_TRUE(ValidXml(dir + "/wall_00002.vtu"));
  const std::vector<double> v = ArrayValues(mesh, "velocity");
  ASSERT_EQ(v.size(), 3 * wall->nodes().size());
  EXPECT_EQ(v[0], wall->velocity()[0]);
  const std::vector<double> q = ArrayValues(mesh, "displacement");
  EXPECT_EQ(q.back(), wall->displacement()[3 * wall->nodes().size() - 1]);

  const std::string contacts = Slurp(dir + "/contacts_00002.vtu");
  EXPECT_EQ(std::stoi(Attribute(contacts, "Piece", "NumberOfPoints")),
            wall->nc());
  EXPECT_TRUE(ValidXml(dir + "/contacts_00002.vtu"));
  EXPECT_TRUE(AllNumbersFinite(contacts));
  const std::vector<double> impulse = ArrayValues(contacts, "impulse");
  const Eigen::Vector3d expected = wall->contacts()[0].frame.col(0) * 2.0;
  EXPECT_NEAR(impulse[0], expected.x(), 1e-15);
  EXPECT_NEAR(impulse[2], expected.z(), 1e-15);
  const std::vector<double> force = ArrayValues(contacts, "force");
  EXPECT_NEAR(force[2], expected.z() / wall->options().h, 1e-12);
  const std::vector<double> status = ArrayValues(contacts, "status");
  ASSERT_EQ(static_cast<int>(status.size()), wall->nc());
  EXPECT_EQ(status[0], 1.0);  // stick
  EXPECT_EQ(status[1], 0.0);  // take-off

  const std::string pvd = Slurp(dir + "/contacts.pvd");
  const size_t second = pvd.find("<DataSet", pvd.find("<DataSet") + 1);
  EXPECT_EQ(Attribute(pvd, "DataSet", "file", second), "contacts_00002.vtu");
  EXPECT_DOUBLE_EQ(std::stod(Attribute(pvd, "DataSet", "timestep", second)),
                   2 * wall->options().h);
  EXPECT_TRUE(ValidXml(dir + "/wall.pvd"));
}

}  // namespace
}  // namespace fcsn::vtk
