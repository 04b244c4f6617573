// VTK XML writer (see vtk_writer.h for the format).
#include "vtk_writer.h"

#include <cmath>
#include <cstdio>
#include <fstream>
#include <sstream>

namespace fcsn::vtk {
namespace {

// 17 significant digits: every double reads back exactly.
std::string Number(double x) {
  char buffer[32];
  std::snprintf(buffer, sizeof(buffer), "%.17g", x);
  return buffer;
}

// "" if the array has the expected size and finite values.
std::string CheckArray(const DataArray& a, int count, const char* where) {
  if (a.name.empty() || a.components < 1) {
    return std::string(where) + " array without a name or components";
  }
  if (a.values.size() != static_cast<size_t>(a.components) * count) {
    return std::string(where) + " array '" + a.name + "' has " +
           std::to_string(a.values.size()) + " values, expected " +
           std::to_string(a.components * count);
  }
  for (double x : a.values) {
    if (!std::isfinite(x)) {
      return std::string(where) + " array '" + a.name +
             "' has a non-finite value";
    }
  }
  return "";
}

void WriteFloatArray(std::ostream& out, const DataArray& a) {
  out << "        <DataArray type=\"Float64\" Name=\"" << a.name
      << "\" NumberOfComponents=\"" << a.components << "\" format=\"ascii\">\n";
  for (size_t i = 0; i < a.values.size(); ++i) {
    out << (i % a.components == 0 ? "          " : " ") << Number(a.values[i])
        << ((i + 1) % a.components == 0 ? "\n" : "");
  }
  out << "        </DataArray>\n";
}

template <class T>
void WriteIntArray(std::ostream& out,
                   const char* type,
                   const char* name,
                   const std::vector<T>& values) {
  out << "        <DataArray type=\"" << type << "\" Name=\"" << name
      << "\" format=\"ascii\">\n          ";
  for (size_t i = 0; i < values.size(); ++i) {
    out << static_cast<long long>(values[i])
        << (i + 1 == values.size() ? "" : " ");
  }
  out << "\n        </DataArray>\n";
}

void WriteGrid(std::ostream& out, const UnstructuredGrid& grid) {
  out << "<?xml version=\"1.0\"?>\n"
      << "<VTKFile type=\"UnstructuredGrid\" version=\"0.1\" "
         "byte_order=\"LittleEndian\" header_type=\"UInt64\">\n"
      << "  <UnstructuredGrid>\n"
      << "    <Piece NumberOfPoints=\"" << grid.NumPoints()
      << "\" NumberOfCells=\"" << grid.NumCells() << "\">\n";
  out << "      <PointData>\n";
  for (const DataArray& a : grid.point_data) WriteFloatArray(out, a);
  out << "      </PointData>\n      <CellData>\n";
  for (const DataArray& a : grid.cell_data) WriteFloatArray(out, a);
  out << "      </CellData>\n      <Points>\n";
  DataArray points{"Points", 3, {}};
  for (const Eigen::Vector3d& p : grid.points) {
    points.values.insert(points.values.end(), {p.x(), p.y(), p.z()});
  }
  WriteFloatArray(out, points);
  out << "      </Points>\n      <Cells>\n";
  WriteIntArray(out, "Int64", "connectivity", grid.connectivity);
  WriteIntArray(out, "Int64", "offsets", grid.offsets);
  WriteIntArray(out, "UInt8", "types", grid.types);
  out << "      </Cells>\n    </Piece>\n  </UnstructuredGrid>\n</VTKFile>\n";
}

// Writes text to path; false and *error on failure.
bool WriteText(const std::string& path,
               const std::string& text,
               std::string* error) {
  std::ofstream out(path, std::ios::binary | std::ios::trunc);
  out << text;
  out.close();
  if (!out) {
    *error = "cannot write " + path;
    return false;
  }
  return true;
}

}  // namespace

void UnstructuredGrid::AddCell(std::uint8_t type,
                               const std::vector<std::int64_t>& nodes) {
  connectivity.insert(connectivity.end(), nodes.begin(), nodes.end());
  offsets.push_back(static_cast<std::int64_t>(connectivity.size()));
  types.push_back(type);
}

std::string UnstructuredGrid::Validate() const {
  if (offsets.size() != types.size()) return "offsets and types differ in size";
  std::int64_t previous = 0;
  for (std::int64_t end : offsets) {
    if (end <= previous || end > static_cast<std::int64_t>(connectivity.size()))
      return "offsets are not increasing within the connectivity";
    previous = end;
  }
  if (previous != static_cast<std::int64_t>(connectivity.size()))
    return "the last offset is not the size of the connectivity";
  for (std::int64_t i : connectivity) {
    if (i < 0 || i >= NumPoints()) return "a cell refers to a missing point";
  }
  for (const Eigen::Vector3d& p : points) {
    if (!p.allFinite()) return "a point has a non-finite coordinate";
  }
  for (const DataArray& a : point_data) {
    if (std::string why = CheckArray(a, NumPoints(), "point"); !why.empty())
      return why;
  }
  for (const DataArray& a : cell_data) {
    if (std::string why = CheckArray(a, NumCells(), "cell"); !why.empty())
      return why;
  }
  return "";
}

bool WriteVtu(const std::string& path,
              const UnstructuredGrid& grid,
              std::string* error) {
  if (std::string why = grid.Validate(); !why.empty()) {
    *error = path + ": " + why;
    return false;
  }
  std::ostringstream text;
  WriteGrid(text, grid);
  return WriteText(path, text.str(), error);
}

void PvdCollection::Add(double time, const std::string& file) {
  entries_.push_back({time, file});
}

bool PvdCollection::Write(const std::string& path, std::string* error) const {
  std::ostringstream text;
  text << "<?xml version=\"1.0\"?>\n"
       << "<VTKFile type=\"Collection\" version=\"0.1\" "
          "byte_order=\"LittleEndian\">\n  <Collection>\n";
  for (const Entry& e : entries_) {
    if (!std::isfinite(e.time)) {
      *error = path + ": a non-finite time step";
      return false;
    }
    if (e.file.find_first_of("&<>\"'") != std::string::npos) {
      *error = path + ": the file name '" + e.file + "' needs XML escaping";
      return false;
    }
    text << "    <DataSet timestep=\"" << Number(e.time)
         << "\" group=\"\" part=\"0\" file=\"" << e.file << "\"/>\n";
  }
  text << "  </Collection>\n</VTKFile>\n";
  return WriteText(path, text.str(), error);
}

}  // namespace fcsn::vtk
