// What a file holds when it is not the text a command reads, told by its first bytes: compressed
// (gzip, xz, zstd, bzip2, with the command that decompresses it), a PNG image, JSON, or other
// binary data; so that `cbi plot --input heat.png` or `--trace t.trace.gz` is named for what it
// is, not as a text that breaks on some line. Host only.
#pragma once

#include <string>
#include <string_view>

namespace cbi {

struct Compression {
  const char *kind; // "gzip"
  const char *tool; // the command that decompresses a copy: "gunzip -k"
};

// The compression whose magic number `head` (a file's first bytes) starts with; nullptr for none.
inline const Compression *compression_of(std::string_view head) {
  static const struct {
    std::string_view magic;
    Compression c;
  } kMagic[] = {{std::string_view("\x1f\x8b", 2), {"gzip", "gunzip -k"}},
                {"\xfd\x37zXZ", {"xz", "unxz -k"}},
                {"\x28\xb5\x2f\xfd", {"zstd", "unzstd"}},
                {"BZh", {"bzip2", "bunzip2 -k"}}};
  for (const auto &m : kMagic)
    if (head.substr(0, m.magic.size()) == m.magic)
      return &m.c;
  return nullptr;
}

// What `head`, a file's first bytes, holds where it is not text: "gzip-compressed" (any of
// compression_of's), "a PNG image", "binary (it holds NUL bytes)", or "JSON" (text, but not the
// CSV or trace that a command reads); "" when it may be the text asked for.
inline std::string foreign_file(std::string_view head) {
  if (const Compression *c = compression_of(head))
    return std::string(c->kind) + "-compressed";
  if (head.substr(0, 8) == std::string_view("\x89PNG\r\n\x1a\n", 8))
    return "a PNG image";
  if (head.find('\0') != std::string_view::npos)
    return "binary (it holds NUL bytes)";
  const std::size_t first = head.find_first_not_of(" \t\r\n");
  if (first != std::string_view::npos && (head[first] == '{' || head[first] == '['))
    return "JSON";
  return "";
}

} // namespace cbi
