// The sweep's store: a tidy CSV (one row per point, flushed per row) with a fixed schema, read back
// through cli's one CSV reader for --resume, merge and reproduce's report.
#pragma once

#include "cbi/cli/output.hpp"

#include <fstream>
#include <set>
#include <string>
#include <vector>

namespace cbi::sweep {

// The CSV schema: point identity (point, point_id, backend), the grid's (grid_id: its fingerprint,
// grid_points: its size, shard: "k/n"), the axis values, simulator columns
// (sim_*) and GPU columns (gpu_*).
const std::vector<std::string> &columns();
// The GPU model's columns at the end of columns() (issue 10 §3): model_device, predicted_ms,
// model_bound, then every ncu-named count twice: NAME_pred (the model, --model gpu or --backend
// sim+gpu) and NAME_meas (the hardware, --backend gpu with --metrics; requests are not read). Files
// written before them read back with these cells empty.
const std::vector<std::string> &model_columns();
std::size_t column_index(const std::string &name); // columns().size() when absent

// Reads a sweep CSV (ours: header must equal columns()). Cells that parse as numbers become
// numbers; the axis columns stay text, empty where the axis does not apply (also where earlier
// versions wrote "-"). A trailing partial line (an interrupted write) is ignored,
// and so is a damaged line. Throws UsageError naming --input.
cli::Table read_csv(const std::string &path);

// Joins shard CSVs: same header, grid and shard count required, rows ordered by point index,
// duplicate point ids kept once. A missing shard or point is an error (UsageError naming --input,
// listing them) unless `partial`, when it is reported on stderr. Returns the merged table.
cli::Table merge(const std::vector<std::string> &paths, bool partial = false);

// The stream a sweep writes: stdout, a new file with the header, or (resume) the complete rows of
// an earlier run of the same backend, continued.
class CsvStore {
public:
  // Who writes: rows of another backend, grid or shard are refused on --resume.
  struct Identity {
    std::string backend, grid_id, shard;
    int64_t grid_points = 0;
  };
  // Throws UsageError (--resume, --output) before anything is written.
  CsvStore(const std::string &path, bool resume, const Identity &who);
  // Point ids the file already holds (empty unless resuming).
  const std::set<std::string> &done_ids() const { return m_done; }
  // Opens the stream (after every check has passed): writes the header or drops an interrupted
  // last line.
  void open();
  // Appends one row and flushes it. Throws std::runtime_error when the write fails.
  void write(const std::vector<cli::Cell> &row);
  bool to_stdout() const { return m_to_stdout; }
  void close() { m_file.close(); }

private:
  std::string m_path;
  bool m_to_stdout, m_continuing = false;
  std::size_t m_complete_bytes = 0;
  std::set<std::string> m_done;
  std::vector<std::vector<std::string>> m_upgraded; // an earlier version's file, upgraded
  std::ofstream m_file;
};

} // namespace cbi::sweep
