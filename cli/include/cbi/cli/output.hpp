// The one results model and its printers (after nvbench's printer_base): a result is a Table of
// named columns (names carry units: bytes_fetched, gpu_time_ms, hit_pct) and typed cells, with
// key/value facts (meta) and caveats (notes). Printers write it as the terminal table, Markdown,
// CSV or JSON; every command prints through them. Files are written atomically (temp file +
// rename) so that a failed run never leaves a half-written result behind.
#pragma once

#include <cstdint>
#include <ostream>
#include <string>
#include <utility>
#include <variant>
#include <vector>

namespace cbi::cli {

// A cell: text, a whole number, a real number, a truth value, or a list of names (JSON writes it as
// a list of strings, files and the terminal as the names joined by commas).
using Names = std::vector<std::string>;
using Cell = std::variant<std::string, int64_t, double, bool, Names>;
// Named, typed values: a table's facts and its configuration.
using Fields = std::vector<std::pair<std::string, Cell>>;

struct Table {
  std::string title; // printed above the terminal table; JSON "title"
  std::vector<std::string> columns;
  std::vector<std::vector<Cell>> rows;
  // What was run (workload, size, order, ...): CSV repeats it as leading columns of every row, so
  // that the CSVs of several runs concatenate; JSON writes it as "config"; the table above it.
  Fields config;
  Fields meta; // facts about the run (threads, seconds, device, ...), typed; JSON "meta"
  std::vector<std::string> notes; // caveats printed under the terminal table and as JSON "notes"

  // How the JSON printer shapes the rows; the table, CSV and Markdown printers keep every column
  // flat. Each group nests its columns under one object per row (cbi simulate --model gpu puts
  // the Nsight-named counts under "metrics"); the other columns stay at the row's top level.
  struct JsonGroup {
    std::string name;
    std::vector<std::string> columns;
  };
  std::vector<JsonGroup> json_groups;
  std::string json_rows = "rows"; // the key of the list of rows ("ranking" for cbi tune)
  // A result of exactly one row written as the document's own keys, not a list of one:
  // {"title", "context", "config", "metrics": {...}, "predicted_ms", ..., "meta", "notes"}.
  bool json_single_row = false;
  // The terminal table as it is (--wide): every column, numbers without separators, no wrapping.
  // Otherwise it is made for 100 columns: all-zero columns left out (and named in a note), numbers
  // with thousands separators, a wide single row printed as name/value lines, wide tables in
  // blocks.
  bool wide = false;
  // Config keys that do not apply to this run (a stencil's depth, matmul's window): CSV and JSON
  // keep the keys, so that files of several workloads line up, with empty cells (an empty CSV
  // cell, JSON null); the terminal table leaves them out.
  std::vector<std::string> table_omits;

  void add_row(std::vector<Cell> row) { rows.push_back(std::move(row)); }
};

// Text form of a cell for files (CSV): exact. Integers in full, doubles that hold an integer as
// that integer, other doubles in the shortest text that reads back to the same double; "nan" when
// not finite; a list of names joined by commas ("linear,column:8", as a list option is typed).
std::string format_cell(const Cell &c);
// For people (the terminal table, Markdown): doubles with up to 6 significant digits, a list of
// names joined by ", ".
std::string format_cell_short(const Cell &c);

// `prefix` + `text`, broken at spaces into lines of at most `width` characters (a word longer
// than a line stays whole); lines after the first are indented by `indent` spaces. Ends in "\n".
// The terminal's 100 columns, for tables' notes and commands' summaries.
std::string wrap_text(const std::string &prefix, const std::string &text, std::size_t indent,
                      std::size_t width = 100);

// A way to write a Table. A new output format is one subclass in cli/src/printers/ plus one line in
// printers() (output.cpp).
class Printer {
public:
  virtual ~Printer() = default;
  const char *name() const { return do_name(); }
  void print(std::ostream &os, const Table &t) const { do_print(os, t); }

private:
  virtual const char *do_name() const = 0;
  virtual void do_print(std::ostream &os, const Table &t) const = 0;
};

// Every printer: table, json, csv, markdown.
const std::vector<const Printer *> &printers();
// The printer called `name`; UsageError naming `option` with the allowed names otherwise.
const Printer &find_printer(const std::string &name, const std::string &option = "--format");
std::string printer_names(); // "table, json, csv, markdown"

// The printers by name, for code that always writes one format.
void print_table(std::ostream &os, const Table &t); // aligned columns, meta above, notes below
void print_csv(std::ostream &os, const Table &t);   // header and rows
// {"title", "context", "config", "meta", "rows": [{col: val}], "notes"}, shaped by json_groups,
// json_rows and json_single_row.
void print_json(std::ostream &os, const Table &t);
void print_markdown(std::ostream &os, const Table &t); // | col | ... | rows, meta and notes around

// Writes `text` to `path`: "-" means stdout; a regular file is replaced atomically (temporary file
// in its folder + rename), so a failed run never leaves half a result; a FIFO or a device is
// written through, never replaced. One rule for symlinks, in every command: a symlink is written
// through, its final target replaced (or created, when the link dangles), and the link stays. A
// path that cannot be written is a UsageError naming `option` ("" is one too); a write that fails
// (a full disk, /dev/full, a closed stdout) is a std::runtime_error "<option>: writing 'F'
// failed: <reason>", a runtime failure (exit 1).
void write_file_atomic(const std::string &path, const std::string &text,
                       const std::string &option = "--output");
// The file that a write to `path` lands in: `path`, or a symlink's final target (which need not
// exist yet).
std::string write_target(const std::string &path);
// The folder that write_target(path) lies in, where the temporary file is written too.
std::string write_folder(const std::string &path);

// Checks, before any work starts, that write_file_atomic(path, ..., option) can write `path`: not
// empty, not a folder, in an existing writable folder (or a writable FIFO/device). "-" passes when
// `stdout_ok`. Throws UsageError naming `option`.
void check_output(const std::string &path, const std::string &option, bool stdout_ok = true);
// The same for a folder that a command creates and fills: an existing writable folder, or a path
// whose nearest existing ancestor is a writable folder.
void check_output_folder(const std::string &path, const std::string &option);

// The run's context block (cbi_version, git_commit, command, date, host_cpu, host_cores,
// compiler, build_type), which every JSON result carries; the command is what set_invocation
// recorded (run_command does, with the whole argv).
std::vector<std::pair<std::string, Cell>> run_context();
void set_invocation(int argc, const char *const *argv);
// "cbi 0.1.0 (commit 1a2b3c4d5e6f, gcc 12.2.0, Release)": what `--version` prints.
std::string version_line(const std::string &program);

// The command line as typed, for provenance in results.
std::string command_line(int argc, const char *const *argv);
std::string utc_timestamp(); // 2026-11-23T06:30:00Z

} // namespace cbi::cli
