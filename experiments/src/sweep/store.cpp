#include "store.hpp"

#include "cbi/cli/csv.hpp"
#include "cbi/config/axis.hpp"
#include "cbi/error.hpp"
#include "cbi/sim/gpu_model.hpp"
#include "grid.hpp"

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <filesystem>
#include <iostream>
#include <optional>

namespace cbi::sweep {

namespace {

constexpr std::size_t kFirstAxis = 6; // point, point_id, backend, grid_id, grid_points, shard

// "42" -> 42, "0.5" -> 0.5, "true" -> true, anything else stays text.
cli::Cell typed_cell(const std::string &s) {
  if (s.empty())
    return s;
  char *end = nullptr;
  if (s.find_first_not_of("-0123456789") == std::string::npos && s != "-") {
    const long long v = std::strtoll(s.c_str(), &end, 10);
    if (*end == 0)
      return static_cast<int64_t>(v);
  }
  if (s == "true" || s == "false")
    return s == "true";
  const double d = std::strtod(s.c_str(), &end);
  if (*end == 0 && s.find_first_of("0123456789") != std::string::npos)
    return d;
  return s;
}

// Earlier versions wrote "-" for an axis that does not apply; today's cell is empty.
std::vector<std::vector<std::string>>
without_old_placeholders(std::vector<std::vector<std::string>> records) {
  const std::size_t end = kFirstAxis + axis_defs().size();
  for (std::size_t r = 1; r < records.size(); ++r)
    for (std::size_t c = kFirstAxis; c < end && c < records[r].size(); ++c)
      if (records[r][c] == kOldAbsentCell)
        records[r][c].clear();
  return records;
}

// The records of a sweep CSV in today's schema. A header that lacks only axes with an implied value
// (added after the file was written) is upgraded: each such cell gets the value its point implies
// (empty where the axis does not apply to the row's kernel); the "-" cells of earlier versions
// become empty. Nothing for any other header.
std::optional<std::vector<std::vector<std::string>>>
in_current_schema(std::vector<std::vector<std::string>> records) {
  if (records.empty())
    return std::nullopt;
  const std::vector<std::string> &header = records[0];
  if (header == columns())
    return without_old_placeholders(std::move(records));
  std::vector<int> from; // per current column: its index in the file, or -1
  for (const std::string &c : columns()) {
    const auto it = std::find(header.begin(), header.end(), c);
    from.push_back(it == header.end() ? -1 : static_cast<int>(it - header.begin()));
  }
  // Columns renamed since: until 2026-11-26 the model's load-only L1 rate was written as
  // l1tex__t_sector_hit_rate.pct, which now names Nsight's all-sector rate (docs/gpu-model.md). A
  // file without the new name holds the load-only rate under the old one: it moves, and the
  // all-sector column stays empty rather than take a number that means something else.
  struct Renamed {
    const char *now, *before;
  };
  for (const Renamed &r : {Renamed{"l1tex__t_sector_pipe_lsu_mem_global_op_ld_hit_rate.pct_pred",
                                   "l1tex__t_sector_hit_rate.pct_pred"}}) {
    const std::size_t now = column_index(r.now), before = column_index(r.before);
    if (from[now] < 0 && from[before] >= 0)
      std::swap(from[now], from[before]);
  }
  const auto &model = model_columns();
  for (std::size_t c = 0; c < from.size(); ++c) {
    if (from[c] >= 0)
      continue;
    if (std::find(model.begin(), model.end(), columns()[c]) != model.end())
      continue; // the GPU model's columns, added later: empty in older files
    const auto &defs = axis_defs();
    const auto d = std::find_if(defs.begin(), defs.end(),
                                [&](const AxisDef &a) { return columns()[c] == a.name; });
    if (d == defs.end() || !d->implied)
      return std::nullopt;
  }
  if (header.size() + std::count(from.begin(), from.end(), -1) != columns().size())
    return std::nullopt; // the file has columns of its own
  const int kernel = from[column_index("kernel")];
  std::vector<std::vector<std::string>> out = {columns()};
  for (std::size_t r = 1; r < records.size(); ++r) {
    const std::vector<std::string> &cells = records[r];
    if (cells.size() != header.size())
      continue; // a damaged line
    std::vector<std::string> row;
    for (std::size_t c = 0; c < from.size(); ++c) {
      if (from[c] >= 0) {
        row.push_back(cells[static_cast<std::size_t>(from[c])]);
        continue;
      }
      if (std::find(model.begin(), model.end(), columns()[c]) != model.end()) {
        row.emplace_back();
        continue;
      }
      const AxisDef &d = axis_def(columns()[c]);
      Point p;
      p.kernel = kernels::parse_kernel(cells[static_cast<std::size_t>(kernel)], "--input");
      d.apply(d.parse(d.implied, "--input"), p);
      row.push_back(axis_text(d, p).value_or(""));
    }
    out.push_back(std::move(row));
  }
  return without_old_placeholders(std::move(out));
}

std::string row_text(const std::vector<cli::Cell> &row) {
  std::vector<std::string> cells;
  for (const cli::Cell &c : row)
    cells.push_back(cli::format_cell(c));
  return cli::csv_line(cells);
}

} // namespace

const std::vector<std::string> &model_columns() {
  static const std::vector<std::string> cols = [] {
    std::vector<std::string> c = {"model_device", "predicted_ms", "model_bound"};
    for (const auto &[name, value] : sim::GpuMetrics{}.named())
      c.push_back(name + "_pred");
    // The counters the harness reads (runner.cpp's model_cells), in named()'s order: not the
    // requests, the load-sector hit rate or the store sectors.
    for (const char *name :
         {"l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum",
          "l1tex__t_sectors_pipe_lsu_mem_global_op_ld_lookup_hit.sum",
          "l1tex__t_sectors_pipe_lsu_mem_global_op_ld_lookup_miss.sum",
          "l1tex__t_sector_hit_rate.pct", "lts__t_sectors_srcunit_tex_op_read.sum",
          "lts__t_sector_hit_rate.pct", "dram__bytes_read.sum"})
      c.push_back(std::string(name) + "_meas");
    return c;
  }();
  return cols;
}

const std::vector<std::string> &columns() {
  static const std::vector<std::string> cols = [] {
    std::vector<std::string> c = {"point",   "point_id",    "backend",
                                  "grid_id", "grid_points", "shard"};
    for (const std::string &a : axis_names())
      c.push_back(a);
    for (const char *s :
         {"sim_l1_accesses", "sim_l1_misses", "sim_l1_hit_pct", "sim_l1_fetched_bytes",
          "sim_l2_hit_pct", "sim_mem_fetched_bytes", "sim_seconds", "gpu_device", "gpu_time_ms",
          "gpu_noise", "gpu_samples", "gpu_gbs", "gpu_check", "gpu_rel_error", "gpu_l1_hit_pct",
          "gpu_l2_hit_pct", "gpu_l2_to_l1_bytes", "gpu_dram_read_bytes"})
      c.push_back(s);
    for (const std::string &s : model_columns())
      c.push_back(s);
    return c;
  }();
  return cols;
}

std::size_t column_index(const std::string &name) {
  const auto &cols = columns();
  return static_cast<std::size_t>(std::find(cols.begin(), cols.end(), name) - cols.begin());
}

cli::Table read_csv(const std::string &path) {
  const std::string text = cli::read_input_file(path, "--input", "a CSV written by cbi sweep");
  if (text.find_first_not_of(" \t\r\n") == std::string::npos)
    throw UsageError("--input", "'" + path + "' is empty; allowed: a CSV written by cbi sweep");
  // Up to the last line break: an interrupted write leaves a last line without one.
  const auto records =
      in_current_schema(cli::parse_csv_records(text.substr(0, text.rfind('\n') + 1)));
  if (!records)
    throw UsageError("--input", "'" + path +
                                    "' is not a cbi sweep CSV of this version (its header "
                                    "differs); allowed: a CSV written by this cbi sweep");
  const std::size_t first_value = kFirstAxis + axis_defs().size();
  cli::Table t;
  t.columns = columns();
  for (std::size_t i = 1; i < records->size(); ++i) {
    const std::vector<std::string> &cells = (*records)[i];
    if (cells.size() != t.columns.size())
      continue; // a damaged line: it is measured again on --resume
    std::vector<cli::Cell> row;
    for (std::size_t c = 0; c < cells.size(); ++c)
      row.push_back(c < first_value ? cli::Cell(cells[c]) : typed_cell(cells[c]));
    row[0] = typed_cell(cells[0]);
    row[4] = typed_cell(cells[4]);
    t.add_row(std::move(row));
  }
  return t;
}

cli::Table merge(const std::vector<std::string> &paths, bool partial) {
  if (paths.empty())
    throw UsageError("--input", "no CSV files to merge; allowed: one or more shard CSVs");
  cli::Table out;
  out.columns = columns();
  std::set<std::string> ids;
  std::set<int64_t> indices, shards;
  std::string grid_id, first, engine;
  int64_t points = 0, shard_count = 0, duplicates = 0;
  const std::size_t model_device = column_index("model_device");
  for (const std::string &p : paths) {
    cli::Table t = read_csv(p);
    for (auto &row : t.rows) {
      const std::string id = std::get<std::string>(row[3]);
      const Shard s = parse_shard(std::get<std::string>(row[5]), "--input");
      // Who made the row: the backend, and the GPU model's device where the model ran. Shards of
      // one sweep share both; a sim shard and a --model gpu shard of one grid do not.
      const std::string device = cli::format_cell(row[model_device]);
      const std::string made_by = "backend " + std::get<std::string>(row[2]) +
                                  (device.empty() ? "" : " (GPU model on " + device + ")");
      if (!engine.empty() && made_by != engine)
        throw UsageError("--input", "'" + p + "' holds rows of " + made_by + ", '" + first +
                                        "' rows of " + engine +
                                        "; allowed: the shards of one sweep, one backend and "
                                        "model");
      if (grid_id.empty()) {
        grid_id = id;
        first = p;
        engine = made_by;
        points = std::get<int64_t>(row[4]);
        shard_count = s.count;
      } else if (id != grid_id || s.count != shard_count) {
        throw UsageError("--input", "'" + p + "' holds grid " + id + " sharded " +
                                        std::to_string(s.count) + " ways, '" + first + "' grid " +
                                        grid_id + " sharded " + std::to_string(shard_count) +
                                        " ways; allowed: the shards of one sweep");
      }
      shards.insert(s.index);
      indices.insert(std::get<int64_t>(row[0]));
      if (ids.insert(std::get<std::string>(row[1])).second)
        out.rows.push_back(std::move(row));
      else
        ++duplicates;
    }
  }
  std::vector<std::string> missing_shards;
  for (int64_t k = 0; k < shard_count; ++k)
    if (!shards.count(k))
      missing_shards.push_back(Shard{k, shard_count}.text());
  std::vector<int64_t> missing_points;
  for (int64_t i = 0; i < points; ++i)
    if (!indices.count(i))
      missing_points.push_back(i);
  std::string missing;
  if (!missing_shards.empty()) {
    missing = "shard" + std::string(missing_shards.size() > 1 ? "s " : " ");
    for (std::size_t i = 0; i < missing_shards.size(); ++i)
      missing += (i ? ", " : "") + missing_shards[i];
    missing += " missing; ";
  }
  if (!missing_points.empty()) {
    missing += std::to_string(missing_points.size()) + " of " + std::to_string(points) +
               " points missing (point";
    for (std::size_t i = 0; i < missing_points.size() && i < 8; ++i)
      missing += (i ? ", " : " ") + std::to_string(missing_points[i]);
    missing += missing_points.size() > 8 ? ", ...)" : ")";
  }
  if (!missing.empty() && !partial)
    throw UsageError("--input", "incomplete sweep: " + missing +
                                    "; allowed: the CSVs of every shard, complete (resume "
                                    "an interrupted one), or --partial to merge what is there");
  if (!missing.empty())
    std::cerr << "cbi sweep merge: partial: " << missing << "\n";
  auto index = [](const std::vector<cli::Cell> &r) {
    const auto *i = std::get_if<int64_t>(&r[0]);
    return i ? *i : int64_t{0};
  };
  std::stable_sort(out.rows.begin(), out.rows.end(),
                   [&](const auto &a, const auto &b) { return index(a) < index(b); });
  out.meta = {{"merged_files", static_cast<int64_t>(paths.size())},
              {"grid_id", grid_id},
              {"grid_points", points},
              {"missing_points", static_cast<int64_t>(missing_points.size())},
              {"duplicate_rows_dropped", static_cast<int64_t>(duplicates)}};
  return out;
}

CsvStore::CsvStore(const std::string &path, bool resume, const Identity &who)
    : m_path(path), m_to_stdout(path.empty() || path == "-") {
  if (resume && m_to_stdout)
    throw UsageError("--resume", "needs --output FILE.csv to continue; allowed: with --output");
  m_continuing = !m_to_stdout && resume && std::filesystem::exists(path) &&
                 std::filesystem::file_size(path) > 0;
  if (!m_continuing)
    return;
  const auto raw = cli::read_complete_records(path, &m_complete_bytes);
  const auto upgraded = in_current_schema(raw);
  if (!upgraded)
    throw UsageError("--resume", "'" + path +
                                     "' is not a cbi sweep CSV of this version "
                                     "(its header differs); allowed: a CSV this command wrote");
  const auto &records = *upgraded;
  if (raw != records)
    m_upgraded = records; // rewritten in today's schema (and cells) when the stream opens
  for (std::size_t i = 1; i < records.size(); ++i) {
    const std::vector<std::string> &cells = records[i];
    if (cells.size() != columns().size())
      continue;
    if (cells[2] != who.backend)
      throw UsageError("--resume", "'" + path + "' holds " + cells[2] + " rows, this run is " +
                                       who.backend +
                                       "; allowed: the same --backend as the first run");
    // "(1 points, ...": a point or N points, as the run's summary says them.
    const auto points = [](const std::string &n) { return n + (n == "1" ? " point" : " points"); };
    if (cells[3] != who.grid_id || cells[5] != who.shard)
      throw UsageError("--resume",
                       "'" + path + "' holds grid " + cells[3] + " (" + points(cells[4]) +
                           ", shard " + cells[5] + "), this run is grid " + who.grid_id + " (" +
                           points(std::to_string(who.grid_points)) + ", shard " + who.shard +
                           "); allowed: the same --grid, axis options and --shard "
                           "as the first run, or a new --output");
    m_done.insert(cells[1]);
  }
}

void CsvStore::open() {
  const std::string header = cli::csv_line(columns());
  if (m_to_stdout) {
    std::cout << header;
    return;
  }
  if (m_continuing && !m_upgraded.empty()) {
    std::string text; // an earlier version's rows, rewritten in today's columns and cells
    for (const auto &record : m_upgraded)
      text += cli::csv_line(record);
    cli::write_file_atomic(m_path, text);
    m_complete_bytes = text.size();
    m_file.open(m_path, std::ios::app | std::ios::binary);
  } else if (m_continuing) {
    std::filesystem::resize_file(m_path, m_complete_bytes); // drop an interrupted last line
    m_file.open(m_path, std::ios::app | std::ios::binary);
  } else {
    // Through a symlink, even a dangling one (cli::write_file_atomic's rule): open() follows it.
    // Only a regular file (or a new one) is ours to remove after a failure, never a device or a
    // FIFO (-o /dev/full must stay /dev/full).
    std::error_code ec;
    const auto kind = std::filesystem::status(cli::write_target(m_path), ec).type();
    m_created = kind == std::filesystem::file_type::not_found ||
                kind == std::filesystem::file_type::regular;
    m_file.open(m_path, std::ios::trunc | std::ios::binary);
    m_complete_bytes = 0;
    if (m_file)
      append(header);
  }
  if (!m_file)
    throw UsageError("--output", "cannot write '" + m_path + "'; allowed: a writable path");
}

void CsvStore::append(const std::string &text) {
  if (m_to_stdout) {
    errno = 0;
    std::cout << text << std::flush;
    if (!std::cout)
      throw std::runtime_error(std::string("writing to stdout failed") +
                               (errno ? std::string(": ") + std::strerror(errno) : ""));
    return;
  }
  errno = 0;
  m_file << text << std::flush;
  if (!m_file) {
    const int err = errno;
    m_file.close();
    std::error_code ec; // keep what was complete: --resume continues from it
    if (std::filesystem::is_regular_file(cli::write_target(m_path), ec))
      std::filesystem::resize_file(cli::write_target(m_path), m_complete_bytes, ec);
    throw std::runtime_error("--output: writing '" + m_path + "' failed" +
                             (err ? std::string(": ") + std::strerror(err) : ""));
  }
  m_complete_bytes += text.size();
}

void CsvStore::write(const std::vector<cli::Cell> &row) {
  append(row_text(row));
  ++m_rows;
}

void CsvStore::commit() {
  m_committed = true;
  if (m_file.is_open())
    m_file.close();
}

CsvStore::~CsvStore() {
  if (m_file.is_open())
    m_file.close();
  std::error_code ec;
  if (m_created && !m_committed && m_rows == 0 &&
      std::filesystem::is_regular_file(cli::write_target(m_path), ec)) {
    std::filesystem::remove(cli::write_target(m_path), ec); // a symlink's target, not the link
  }
}

} // namespace cbi::sweep
