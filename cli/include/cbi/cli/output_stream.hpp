// write_stream_atomic: write_file_atomic (cbi/cli/output.hpp) for output too large to hold in
// memory.
#pragma once

#include <functional>
#include <ostream>
#include <string>

namespace cbi::cli {

// Writes what `write` streams to `path` with write_file_atomic's rules ("-" is stdout; a regular
// file is replaced atomically through a temporary file in its folder; a FIFO or a device is written
// through). An exception from `write` removes the temporary file and propagates: no half file.
void write_stream_atomic(const std::string &path, const std::function<void(std::ostream &)> &write,
                         const std::string &option = "--output");

} // namespace cbi::cli
