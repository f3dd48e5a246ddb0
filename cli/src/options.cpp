#include "cbi/cli/options.hpp"

#include "cbi/error.hpp"
#include "cbi/parse.hpp"

#include <algorithm>
#include <cctype>
#include <cerrno>
#include <cstring>
#include <filesystem>
#include <iostream>
#include <sstream>
#include <stdexcept>
#include <utility>
#include <vector>

namespace cbi::cli {

// The options that name a file a command writes; each is checked before any work starts.
static const char *const kOutputOptions[] = {"output", "json", "csv", "screenshot"};

// Two of the outputs naming one file: the later write replaced the earlier (sweep -o x --json x
// wrote JSON over the CSV, then failed reading it back; diagram -o d.png --csv d.png kept one).
void refuse_one_file_twice(const po::variables_map &vm) {
  std::vector<std::pair<std::string, std::filesystem::path>> files;
  for (const char *name : kOutputOptions) {
    if (!vm.count(name) || vm[name].empty() || vm[name].value().type() != typeid(std::string))
      continue;
    const std::string path = vm[name].as<std::string>();
    if (path == "-")
      continue; // stdout: the commands that write two documents refuse two there themselves
    // The file each write lands in: a symlink's final target, a dangling one's too
    // (weakly_canonical stops at a dangling link, so -o l.png --csv c.csv with l.png -> c.csv wrote
    // one over the other).
    std::error_code ec;
    const std::filesystem::path file =
        std::filesystem::weakly_canonical(std::filesystem::absolute(write_target(path), ec), ec)
            .lexically_normal();
    for (const auto &[earlier, earlier_file] : files)
      if (!ec && file == earlier_file)
        throw UsageError(std::string("--") + name,
                         "'" + path + "' is the file of " + earlier +
                             " too, and one write would replace the other; allowed: a file of "
                             "its own");
    files.push_back({std::string("--") + name, file});
  }
}

std::string long_option_names(const po::options_description &desc) {
  std::string names;
  for (const auto &o : desc.options())
    if (!o->long_name().empty())
      names += (names.empty() ? "--" : ", --") + o->long_name();
  return names;
}

bool near_spelling(const std::string &given, const std::string &name) {
  if (given.size() < 4 || given == name)
    return false;
  // Damerau-Levenshtein distance (optimal string alignment), rows of the table three at a time.
  const std::size_t n = name.size();
  std::vector<std::size_t> before(n + 1), last(n + 1), row(n + 1);
  for (std::size_t j = 0; j <= n; ++j)
    last[j] = j;
  for (std::size_t i = 1; i <= given.size(); ++i) {
    row[0] = i;
    for (std::size_t j = 1; j <= n; ++j) {
      const std::size_t change = given[i - 1] == name[j - 1] ? 0 : 1;
      row[j] = std::min({last[j] + 1, row[j - 1] + 1, last[j - 1] + change});
      if (i > 1 && j > 1 && given[i - 1] == name[j - 2] && given[i - 2] == name[j - 1])
        row[j] = std::min(row[j], before[j - 2] + 1);
    }
    before = last;
    last = row;
  }
  return last[n] <= (given.size() >= 8 ? 2u : 1u);
}

UsageError unknown_option(const std::string &given, const po::options_description &desc) {
  // The options that `given` begins (--cache: --cache-bytes), as Boost would have guessed them.
  // -size and --Size (one dash, another case) name --size too: they were offered no spelling.
  std::string spelled;
  std::string stem = given.rfind("--", 0) == 0  ? given.substr(2)
                     : given.rfind("-", 0) == 0 ? given.substr(1)
                                                : "";
  for (char &c : stem)
    c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  // Then the near misses: --orders for --order, --stencl for --stencil.
  for (const bool begun : {true, false})
    for (const auto &o : desc.options()) {
      const std::string &name = o->long_name();
      const bool begins = stem.size() > 1 && name.rfind(stem, 0) == 0;
      if (begun ? begins : !begins && near_spelling(stem, name))
        spelled += (spelled.empty() ? "--" : " or --") + name;
    }
  return UsageError(given, "not an option of this command" +
                               (spelled.empty() ? "" : " (did you mean " + spelled + "?)") +
                               "; allowed: " + long_option_names(desc) +
                               " (spelled in full; --help explains each)");
}

UsageError usage_error_of(const po::error &e, const po::options_description &desc) {
  const auto *named = dynamic_cast<const po::error_with_option_name *>(&e);
  const std::string name = named ? named->get_option_name() : "";
  if (dynamic_cast<const po::multiple_occurrences *>(&e)) // the word and --NAME both, too
    return UsageError(name, "given twice; allowed: once");
  if (dynamic_cast<const po::unknown_option *>(&e))
    return unknown_option(name, desc);
  if (const auto *syntax = dynamic_cast<const po::invalid_command_line_syntax *>(&e)) {
    if (syntax->kind() == po::invalid_syntax::missing_parameter) // `--size` last, valueless
      return UsageError(name, "needs a value; allowed: " + name + " VALUE (--help says which)");
    if (syntax->kind() == po::invalid_syntax::extra_parameter) // --writes=true
      return UsageError(name, "is a switch and takes no value; allowed: " + name + " alone");
    if (syntax->kind() == po::invalid_syntax::empty_adjacent_parameter) // --order=
      return UsageError(name, "needs a value after '='; allowed: " + name + "=VALUE or " + name +
                                  " VALUE (--help says which)");
  }
  return UsageError(name.empty() ? "cbi" : name, e.what());
}

bool parse_args(int argc, char **argv, const po::options_description &desc, po::variables_map &vm,
                const std::string &usage, const std::string &examples,
                const std::vector<std::string> &files_only, const std::vector<std::string> &folders,
                const std::string &positional, const std::string &positional_label) {
  po::options_description all = desc;
  all.add_options()("help,h", "show this help");
  try {
    po::command_line_parser parser(argc, argv);
    parser.options(all).style(kParserStyle);
    po::positional_options_description words; // without it boost keeps every word, to refuse
    if (!positional.empty())
      parser.positional(words.add(positional.c_str(), 1));
    const po::parsed_options parsed = parser.run();
    // Boost keeps stray words and store() drops them: a word after a value (`--order linear
    // column:32`) would be ignored, so it is an error; only the one positional word is taken.
    for (const po::option &o : parsed.options)
      if ((o.position_key >= 0 && o.string_key != positional) || o.string_key.empty())
        throw UsageError(o.original_tokens.empty() ? "cbi" : o.original_tokens.front(),
                         "unexpected argument; allowed: --option value pairs (lists as a,b or by "
                         "repeating the option; see --help)");
    po::store(parsed, vm);
  } catch (const po::too_many_positional_options_error &) {
    throw UsageError(positional_label, "more than one given; allowed: one (see --help)");
  } catch (const po::multiple_occurrences &e) {
    // `cbi devices --name h100 extra` was "--name: given twice", though --name was given once.
    const std::string option = "--" + positional;
    const auto typed = std::count_if(argv + 1, argv + argc, [&](const char *a) {
      return std::string(a) == option || std::string(a).rfind(option + "=", 0) == 0;
    });
    if (!positional.empty() && e.get_option_name() == option && typed == 1)
      throw UsageError(positional_label,
                       "given as a word and as " + option + " too; allowed: one of them, once");
    throw usage_error_of(e, all);
  } catch (const po::error &e) {
    throw usage_error_of(e, all);
  }
  if (vm.count("help")) {
    errno = 0; // a help longer than stdio's buffer fails while it is written: keep why
    std::cout << usage << "\n\n" << all << "\nExamples:\n" << examples << "\n" << std::flush;
    if (!std::cout)
      throw std::runtime_error(std::string("writing to stdout failed") +
                               (errno ? std::string(": ") + std::strerror(errno) : ""));
    return false;
  }
  po::notify(vm);
  // Before any work: --format xml, or --format table -o x.json, is exit 2 now.
  if (desc.find_nothrow("format", false) && desc.find_nothrow("output", false)) {
    const std::string format = format_from(vm).name();
    if (wide_from(vm) && format != "table")
      throw UsageError("--wide", "applies to the terminal table only; allowed: --wide with "
                                 "--format table (the default), or " +
                                     format + (has(vm, "format") ? "" : " (--output's ending)") +
                                     " without --wide");
  }
  for (const char *name : kOutputOptions) {
    if (!vm.count(name) || vm[name].empty() || vm[name].value().type() != typeid(std::string))
      continue;
    const std::string path = vm[name].as<std::string>(), option = std::string("--") + name;
    if (std::find(folders.begin(), folders.end(), name) != folders.end())
      check_output_folder(path, option);
    else
      check_output(path, option,
                   std::find(files_only.begin(), files_only.end(), name) == files_only.end());
  }
  refuse_one_file_twice(vm);
  return true;
}

std::vector<std::string> list_from(const po::variables_map &vm, const std::string &name,
                                   const std::vector<std::string> &fallback) {
  if (!vm.count(name))
    return fallback;
  std::vector<std::string> items;
  for (const std::string &text : vm[name].as<std::vector<std::string>>())
    for (std::string &item : parse_list(text, "--" + name))
      items.push_back(std::move(item));
  return items;
}

bool has(const po::variables_map &vm, const std::string &name) { return vm.count(name) > 0; }

std::string get(const po::variables_map &vm, const std::string &name, const std::string &fallback) {
  return vm.count(name) ? vm[name].as<std::string>() : fallback;
}

void add_output_options(po::options_description &desc, const std::string &default_format) {
  std::string formats;
  for (const char *name : {"table", "json", "csv", "markdown"})
    formats += (formats.empty() ? "" : " | ") + std::string(name) +
               (name == std::string("markdown") ? " (or md)" : "") +
               (name == default_format ? " (default)" : "");
  // clang-format off
  desc.add_options()
    ("format", po::value<std::string>(), formats.c_str())
    ("wide", po::bool_switch(), "table format: show every column (all-zero ones too) at full "
                                "precision, without thousands separators or wrapping; the default "
                                "table fits 100 columns")
    ("output,o", po::value<std::string>(), kOutputHelp);
  // clang-format on
}

namespace {

// `path`'s extension in lower case (".JSON" -> ".json"): an ending names its format in any case.
std::string lower_extension(const std::string &path) {
  std::string e = std::filesystem::path(path).extension().string();
  for (char &c : e)
    c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return e;
}

// The format that --output's ending names (.csv, .json, .md, .txt for the table, in any case), or
// "" for any other.
std::string format_of_path(const std::string &path) {
  const std::string e = lower_extension(path);
  return e == ".csv"    ? "csv"
         : e == ".json" ? "json"
         : e == ".md"   ? "markdown"
         : e == ".txt"  ? "table"
                        : "";
}

} // namespace

const Printer &format_from(const po::variables_map &vm, const std::string &default_format) {
  const std::string output = get(vm, "output", "-"), named = format_of_path(output);
  if (!has(vm, "format")) {
    // r.xml would get the table silently: an ending must name the format, or --format does.
    const std::string ending = std::filesystem::path(output).extension().string();
    if (named.empty() && !ending.empty())
      throw UsageError("--output", "'" + output + "' ends in " + ending +
                                       ", which names no format; allowed: an ending .csv, "
                                       ".json, .md or .txt (the table), none (" +
                                       default_format +
                                       "), or --format table|json|csv|markdown with an ending "
                                       "that names none");
    return find_printer(named.empty() ? default_format : named);
  }
  const Printer &p = find_printer(get(vm, "format", ""));
  if (!named.empty() && named != p.name())
    throw UsageError("--format", std::string(p.name()) + " does not match --output " + output +
                                     " (" + named + "); allowed: --format " + named +
                                     ", or leave --format out (the ending picks it)");
  return p;
}

void require_format_of_path(const std::string &path, const std::string &option,
                            const std::string &format) {
  const std::string named = format_of_path(path);
  // sweep -o r.txt wrote CSV where every other -o r.txt writes the table: .txt names it too.
  if (!named.empty() && named != format)
    throw UsageError(option, "'" + path + "' ends as " +
                                 (named == "table" ? "the table (.txt)" : named) + " does, and " +
                                 option + " writes " + format + "; allowed: a path ending in ." +
                                 format + " (or an ending that names no format, or none)");
}

void require_png(const std::string &path, const std::string &option) {
  if (lower_extension(path) != ".png") // fig.PNG too, as r.JSON is JSON
    throw UsageError(option, "'" + path + "' does not end in .png; allowed: a .png path");
}

bool wide_from(const po::variables_map &vm) {
  return vm.count("wide") && vm["wide"].value().type() == typeid(bool) && vm["wide"].as<bool>();
}

void emit(const po::variables_map &vm, const Table &t) {
  std::ostringstream os;
  if (wide_from(vm)) {
    Table wide = t;
    wide.wide = true;
    format_from(vm).print(os, wide);
  } else {
    format_from(vm).print(os, t);
  }
  write_file_atomic(get(vm, "output", "-"), os.str(), "--output");
}

std::string name_option(int argc, char **argv) {
  const bool option = std::any_of(
      argv + 1, argv + argc, [](const char *a) { return std::string(a).rfind("--name", 0) == 0; });
  return option ? "--name" : "NAME";
}

int list_command(int argc, char **argv, const std::string &usage, const std::string &examples,
                 const std::function<Table()> &table) {
  po::options_description desc("Options");
  add_output_options(desc);
  po::variables_map vm;
  if (parse_args(argc, argv, desc, vm, usage, examples))
    emit(vm, table());
  return 0;
}

} // namespace cbi::cli
