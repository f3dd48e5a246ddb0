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
  // Appends one row and flushes it. When the write fails (a full disk), cuts the file back to its
  // last complete row and throws std::runtime_error naming --output.
  void write(const std::vector<cli::Cell> &row);
  bool to_stdout() const { return m_to_stdout; }
  // The run ended as planned: the file stays even when it holds no row (an empty grid).
  void commit();
  // A file this run created and wrote no row into (it failed or was interrupted first) is
  // removed: a failure leaves no empty CSV behind. A resumed file keeps its rows.
  ~CsvStore();
  CsvStore(const CsvStore &) = delete;
  CsvStore &operator=(const CsvStore &) = delete;

private:
  void append(const std::string &text); // to stdout or the file; std::runtime_error on failure

  std::string m_path;
  bool m_to_stdout, m_continuing = false;
  bool m_created = false, m_committed = false; // this run made the file; it ended as planned
  int64_t m_rows = 0;                          // rows this run wrote
  std::size_t m_complete_bytes = 0;            // the file's bytes up to its last complete row
  std::set<std::string> m_done;
  std::vector<std::vector<std::string>> m_upgraded; // an earlier version's file, upgraded
  std::ofstream m_file;
};

} // namespace cbi::sweep
