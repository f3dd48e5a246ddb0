// Reading a command's options: strict parsing of argv (stray words, output files checked before
// any work), list options, and the output options (--format, --output). The simulator's option
// groups are config/'s (cbi/config/options.hpp).
#pragma once

#include "cbi/cli/output.hpp"
#include "cbi/error.hpp"
#include "cbi/parse.hpp"

#include <boost/program_options.hpp>

#include <functional>
#include <string>
#include <vector>

namespace cbi::cli {

namespace po = boost::program_options;

// Boost's command-line style without its prefix guessing: every option is spelled in full, so
// --cache is refused rather than taken as --cache-bytes (and an abbreviation cannot change
// meaning when an option is added).
constexpr int kParserStyle =
    po::command_line_style::default_style & ~po::command_line_style::allow_guessing;

// The error for an option `desc` does not have (`given` as typed: --cache): names the options it
// begins, if any ("did you mean --cache-bytes?"), and lists every option of `desc`.
UsageError unknown_option(const std::string &given, const po::options_description &desc);

// Whether `given` is a near miss of `name` (both lower case): one letter added, dropped, changed or
// two swapped (--orders for --order, --stencl, --wokrload), or two such for names of 8 letters
// and more (--cahce-bytes). Short words (3 letters and fewer) are near nothing.
bool near_spelling(const std::string &given, const std::string &name);

// Boost's parse error as the one line a user reads, naming the option as given: unknown (see
// unknown_option), given twice, a value missing (--size last) or given to a switch (--writes=1).
UsageError usage_error_of(const po::error &e, const po::options_description &desc);

// "--a, --b, ..." : every long option of `desc`, in its order.
std::string long_option_names(const po::options_description &desc);

// Parses argv against `desc`; all values are strings and validated by the caller. Prints help and
// returns false on --help. Unknown options, missing values and stray words (any argument that is
// not an option or its value) become UsageError. The output options (--output, --json, --csv,
// --screenshot) are checked with check_output before any work starts; those named in `files_only`
// (a PNG) cannot be stdout, those named in `folders` (reproduce's report) are checked as folders
// the command creates (check_output_folder).
// Two output options naming one file (--output x --json ./x) are refused too
// (refuse_one_file_twice).
// With `positional` (an option of `desc` that also stands alone: `cbi presets NAME`), one word may
// give that option's value; a second word is a UsageError naming `positional_label` (NAME).
bool parse_args(int argc, char **argv, const po::options_description &desc, po::variables_map &vm,
                const std::string &usage, const std::string &examples,
                const std::vector<std::string> &files_only = {},
                const std::vector<std::string> &folders = {}, const std::string &positional = "",
                const std::string &positional_label = "");

// A UsageError naming the later of two output options (--output, --json, --csv, --screenshot)
// that name one file, the same once resolved: one write would replace the other. Stdout (-) is
// left to the commands that write two documents.
void refuse_one_file_twice(const po::variables_map &vm);

// How a list command's one name was given, for its error: "--name" (cbi presets --name x) or the
// word "NAME" (cbi presets x).
std::string name_option(int argc, char **argv);

// A list option: declared with list_value(), given as a comma list, by repeating the option, or
// both (`--order linear,column:4 --order column:8`). Empty items are errors.
inline po::typed_value<std::vector<std::string>> *list_value() {
  return po::value<std::vector<std::string>>()->composing();
}
std::vector<std::string> list_from(const po::variables_map &vm, const std::string &name,
                                   const std::vector<std::string> &fallback = {});

// The help of -o/--output, the same in every command.
constexpr const char *kOutputHelp = "write the result to this file instead of stdout (- is "
                                    "stdout); its ending picks the format without --format: "
                                    ".csv, .json, .md (markdown), .txt (the table) or none "
                                    "(the default); "
                                    "a regular file is replaced atomically, a FIFO, device or "
                                    "symlink's target is written through";

std::string get(const po::variables_map &vm, const std::string &name, const std::string &fallback);
bool has(const po::variables_map &vm, const std::string &name);

// --format --wide --output; `default_format` is what the command writes without --format (its
// help says so: cbi sweep merge writes CSV, every other command the table).
void add_output_options(po::options_description &desc, const std::string &default_format = "table");
// --format; without it, the format that --output's ending names (.csv, .json, .md, .txt: the
// table), else `default_format` (for no ending; any other ending, r.xml, is a UsageError). A
// --format that disagrees with the ending is a UsageError.
const Printer &format_from(const po::variables_map &vm,
                           const std::string &default_format = "table");
bool wide_from(const po::variables_map &vm); // --wide (false where not declared)
// A file that is always a PNG (diagram -o, plot -o, view --screenshot and its shot: steps): a path
// not ending in .png, in any case, is a UsageError naming `option`.
void require_png(const std::string &path, const std::string &option);
// An option whose file always holds `format` (csv, json): a path whose ending names another
// (.csv, .json, .md, .txt for the table) is a UsageError naming `option`, before any work.
void require_format_of_path(const std::string &path, const std::string &option,
                            const std::string &format);
// Prints `t` in the chosen format to --output (atomically) or stdout.
void emit(const po::variables_map &vm, const Table &t);

// The whole of a command that lists one table and takes the output options alone (cbi devices,
// cbi presets): parses argv with `usage` and `examples` for --help, then emits table().
int list_command(int argc, char **argv, const std::string &usage, const std::string &examples,
                 const std::function<Table()> &table);

} // namespace cbi::cli
