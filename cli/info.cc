// `fcsn info FILE`: what an FCLib global problem file holds and how fcsn reads
// it.
#include <cstdio>
#include <iostream>
#include <memory>
#include <string>
#include <vector>

#include "cli/cli_util.h"
#include "cli/commands.h"
#include "fcsn/fclib_io.h"

namespace fcsn::cli {
namespace {

struct InfoArgs {
  std::string file;
  bool json = false;
  std::string m_storage = ToString(MStorage::kAuto);
};

std::string Format(double x) {
  char buffer[32];
  std::snprintf(buffer, sizeof(buffer), "%.6g", x);
  return buffer;
}

// Human-readable notes on how the file stores its matrices.
std::vector<std::string> StorageNotes(const FclibFileInfo& info,
                                      MStorage m_storage) {
  std::vector<std::string> notes;
  if (info.m_upper_triangular) {
    notes.push_back(
        info.m_symmetrized
            ? "M is stored as its upper triangle; using U + U^T - diag(U)"
            : "M is stored as its upper triangle; using it as stored "
              "(non-symmetric, "
              "as Siconos does)");
  }
  if (info.m_explicit_zeros > 0 || info.h_explicit_zeros > 0) {
    notes.push_back("explicit zeros kept as structural entries: " +
                    std::to_string(info.m_explicit_zeros) + " in M, " +
                    std::to_string(info.h_explicit_zeros) + " in H");
  }
  if (info.duplicates_summed > 0) {
    notes.push_back(std::to_string(info.duplicates_summed) +
                    " duplicate entries summed");
  }
  return notes;
}

void RunInfo(const InfoArgs& args) {
  const MStorage m_storage = ParseMStorage(args.m_storage);
  GlobalProblem problem;
  FclibFileInfo info;
  LoadProblemOrExit(args.file, m_storage, &problem, &info);
  const double mu_min = problem.mu.minCoeff();
  const double mu_max = problem.mu.maxCoeff();
  const std::vector<std::string> notes = StorageNotes(info, m_storage);
  if (args.json) {
    nlohmann::json out = {
        {"file", args.file},
        {"title", info.title},
        {"description", info.description},
        {"n", problem.n()},
        {"m", problem.m()},
        {"nc", problem.nc()},
        {"nnz_M", problem.M.nonZeros()},
        {"nnz_H", problem.H.nonZeros()},
        {"m_format", info.m_format},
        {"h_format", info.h_format},
        {"m_stored_nnz", info.m_stored_nnz},
        {"h_stored_nnz", info.h_stored_nnz},
        {"m_explicit_zeros", info.m_explicit_zeros},
        {"h_explicit_zeros", info.h_explicit_zeros},
        {"duplicates_summed", info.duplicates_summed},
        {"m_upper_triangular", info.m_upper_triangular},
        {"m_symmetrized", info.m_symmetrized},
        {"m_storage", ToString(m_storage)},
        {"mu_min", mu_min},
        {"mu_max", mu_max},
        {"f_norm", problem.f.norm()},
        {"w_norm", problem.w.norm()},
        {"has_solution", info.has_solution},
        {"number_of_guesses", info.number_of_guesses},
        {"notes", notes},
    };
    PrintJson(out);
    return;
  }
  std::cout << "file:    " << args.file << "\n";
  if (!info.title.empty()) std::cout << "title:   " << info.title << "\n";
  std::cout << "sizes:   n = " << problem.n() << ", m = " << problem.m()
            << ", nc = " << problem.nc() << "\n";
  std::cout << "M:       " << problem.n() << " x " << problem.n() << ", nnz "
            << problem.M.nonZeros() << " (stored as " << info.m_format << ", "
            << info.m_stored_nnz << " entries)\n";
  std::cout << "H:       " << problem.n() << " x " << problem.m() << ", nnz "
            << problem.H.nonZeros() << " (stored as " << info.h_format << ", "
            << info.h_stored_nnz << " entries)\n";
  std::cout << "mu:      [" << Format(mu_min) << ", " << Format(mu_max)
            << "]\n";
  std::cout << "||f||:   " << Format(problem.f.norm()) << "\n";
  std::cout << "||w||:   " << Format(problem.w.norm()) << "\n";
  std::cout << "stored:  solution " << (info.has_solution ? "yes" : "no")
            << ", guesses " << info.number_of_guesses << "\n";
  for (const std::string& note : notes)
    std::cout << "note:    " << note << "\n";
}

}  // namespace

void RegisterInfoCommand(CLI::App& app) {
  auto args = std::make_shared<InfoArgs>();
  CLI::App* command = app.add_subcommand(
      "info", "Describe an FCLib global problem file (sizes, storage, data)");
  command->add_option("file", args->file, "FCLib global problem (HDF5)")
      ->required();
  command->add_flag(
      "--json", args->json, "Print one JSON object instead of text");
  AddMStorageOption(command, &args->m_storage);
  command->callback([args] { RunInfo(*args); });
}

}  // namespace fcsn::cli
