// The printers' factories (one file each in this folder), listed by printers() in output.cpp.
#pragma once

#include "cbi/cli/output.hpp"

namespace cbi::cli::detail {

const Printer &table_printer();
const Printer &csv_printer();
const Printer &json_printer();
const Printer &markdown_printer();

} // namespace cbi::cli::detail
