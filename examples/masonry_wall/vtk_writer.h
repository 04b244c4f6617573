// vtk_writer.h: a small writer of VTK XML unstructured grids (.vtu) and of
// ParaView time-series collections (.pvd), for the FE examples' pictures.
//
// Why not VTK itself: Debian 12's libvtk9-dev pulls about 230 packages (a JDK,
// MPI HDF5, GDAL, Qt-less GL and video stacks; `apt-get install -s`) for what
// is a few hundred lines of documented ASCII XML here.
//
// Format (VTK file formats, "XML File Formats", UnstructuredGrid, version 0.1,
// ascii): one Piece with
//   <Points>     one Float64 DataArray, 3 components per point;
//   <Cells>      Int64 "connectivity" (point indices of every cell, in VTK's
//                node order), Int64 "offsets" (end of each cell in
//                connectivity), UInt8 "types" (VTK cell type ids, e.g.
//                kVtkVertex 1, kVtkHexahedron 12);
//   <PointData>, <CellData>   Float64 DataArrays with NumberOfComponents.
// A .pvd is a <Collection> of <DataSet timestep="t" part="0" file="..."/>
// entries, file names relative to the .pvd (names with & < > " ' are
// refused rather than escaped). Values are written with 17
// significant digits (exact round trip). Non-finite values are refused: VTK's
// ascii reader does not parse "nan".
//
// Usage:
//   fcsn::vtk::UnstructuredGrid grid;
//   grid.points = {...};  grid.AddCell(fcsn::vtk::kVtkHexahedron, {0,...,7});
//   grid.point_data.push_back({"displacement", 3, values});
//   std::string error;
//   if (!fcsn::vtk::WriteVtu("out/wall_0001.vtu", grid, &error)) { ... }
//   fcsn::vtk::PvdCollection series;  series.Add(0.001, "wall_0001.vtu");
//   series.Write("out/wall.pvd", &error);
#ifndef FCSN_EXAMPLES_MASONRY_WALL_VTK_WRITER_H_
#define FCSN_EXAMPLES_MASONRY_WALL_VTK_WRITER_H_

#include <Eigen/Core>
#include <cstdint>
#include <string>
#include <vector>

namespace fcsn::vtk {

// VTK cell type ids used by the examples (vtkCellType.h).
inline constexpr std::uint8_t kVtkVertex = 1;
inline constexpr std::uint8_t kVtkHexahedron = 12;

// A named field: `components` values per point (or cell), point-major.
struct DataArray {
  std::string name;
  int components = 1;
  std::vector<double> values;
};

struct UnstructuredGrid {
  std::vector<Eigen::Vector3d> points;
  std::vector<std::int64_t> connectivity;
  std::vector<std::int64_t> offsets;  // end of cell c in connectivity
  std::vector<std::uint8_t> types;
  std::vector<DataArray> point_data;  // values.size() = components * points
  std::vector<DataArray> cell_data;   // values.size() = components * cells

  int NumPoints() const { return static_cast<int>(points.size()); }
  int NumCells() const { return static_cast<int>(types.size()); }
  void AddCell(std::uint8_t type, const std::vector<std::int64_t>& nodes);
  // "" if sizes, indices and values are consistent and finite, otherwise one
  // sentence naming the problem.
  std::string Validate() const;
};

// Writes grid to path (a .vtu file); false and *error set on invalid data or
// an I/O failure.
bool WriteVtu(const std::string& path,
              const UnstructuredGrid& grid,
              std::string* error);

// The entries of a .pvd time series.
class PvdCollection {
 public:
  // file: relative to the .pvd's directory.
  void Add(double time, const std::string& file);
  int size() const { return static_cast<int>(entries_.size()); }
  // Writes every entry so far (rewriting path); false and *error on failure.
  bool Write(const std::string& path, std::string* error) const;

 private:
  struct Entry {
    double time;
    std::string file;
  };
  std::vector<Entry> entries_;
};

}  // namespace fcsn::vtk

#endif  // FCSN_EXAMPLES_MASONRY_WALL_VTK_WRITER_H_
