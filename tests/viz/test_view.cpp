// The viewer under Xvfb: a scripted sequence of events (hover, playback, order and cache-size keys)
// drives `cbi view`, whose printed readout and window screenshots are checked. Skipped where
// xvfb-run is not installed.
#include "cbi/viz/canvas.hpp"
#include "cbi/viz/diagram.hpp"
#include "cli_run.hpp"

#include <gtest/gtest.h>

#include <array>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <string>
#include <sys/wait.h>
#include <unistd.h>

namespace cbi::viz {
namespace {

using test::bin_dir;

bool have_xvfb() { return std::system("command -v Xvfb >/dev/null 2>&1") == 0; }

int64_t count(const Canvas &c, Color colour, int x0, int x1) {
  int64_t n = 0;
  for (int y = 0; y < c.height(); ++y)
    for (int x = x0; x < x1; ++x)
      n += c.pixel(x, y) == colour;
  return n;
}

// The line of the readout printed after a script step ("view: STEP | ..."), its last occurrence.
std::string after(const std::string &out, const std::string &step) {
  const auto at = out.rfind("view: " + step + " |");
  if (at == std::string::npos)
    return "";
  return out.substr(at, out.find('\n', at) - at);
}

// Runs `cbi view ARGS --script SCRIPT` on an X server of its own; its stdout into `out`, the
// server's and the viewer's stderr into `err`; returns the wait status.
int view_under_xvfb(const std::string &dir, const std::string &args, const std::string &script,
                    std::string &out, std::string &err) {
  // Under the sanitizer build, Mesa's software GL keeps 112 bytes from JIT-compiled code until
  // exit, which LeakSanitizer reports; leaks in viz itself are covered by the headless tests.
  // The X server picks a free display itself and says which (-displayfd), under a lock that every
  // run of this test holds until its viewer is done: an X server looking for a free display
  // removes the socket of a display in use as it tries it (xvfb-run -a's server and -displayfd's
  // alike), so two runs at once (several checkouts on one machine) left cbi view without its
  // display (SFML: "Failed to open X11 display", an abort). The server's and cbi view's messages
  // go to err_log.
  // The display file is removed before each server starts: the loop below would otherwise read a
  // number left by an earlier server (a retry's, or an earlier run's with this pid) before the new
  // server's redirection empties the file, and cbi view would find no display. The loop also waits
  // for the display's socket: under load (a 16-thread test beside it) cbi view found no display
  // 0.2 s after the number was written, twice in a row. -noreset: the server stays up between cbi
  // view's own display check and SFML's connection (cbi view now holds its check's connection
  // open too; an X server resets when its last client leaves).
  const std::string display_file = dir + "/display", err_log = dir + "/stderr.txt";
  const std::string cmd =
      "( flock 9; rm -f '" + display_file +
      "'; Xvfb -displayfd 3 -screen 0 1400x900x24 -nolisten tcp -noreset 3>'" + display_file +
      "' 2>'" + err_log + "' 9>&- & xvfb=$!; for i in $(seq 400); do [ -s '" + display_file +
      "' ] && [ -S /tmp/.X11-unix/X$(cat '" + display_file +
      "') ] && break; sleep 0.05; done; DISPLAY=:$(cat '" + display_file +
      "') ASAN_OPTIONS=detect_leaks=0 " + bin_dir() + "/cbi view " + args + " --script '" + script +
      "' 2>>'" + err_log + "' 9>&-; rc=$?; kill $xvfb; wait $xvfb; exit $rc ) 9>" +
      ::testing::TempDir() + "/cbi_view_xvfb.lock";
  // Two more tries where the viewer found no display (the X server's, not cbi's, failure: seen
  // with several runs at once on a loaded machine); any other failure fails at once.
  int status = -1;
  for (int attempt = 0; attempt < 3; ++attempt) {
    if (attempt > 0) // the failures seen came two in a row within 0.4 s: give the X side a second
      std::system("sleep 1");
    FILE *p = popen(cmd.c_str(), "r");
    if (!p)
      return -1;
    out.clear();
    std::array<char, 4096> buf{};
    std::size_t n;
    while ((n = fread(buf.data(), 1, buf.size(), p)) > 0)
      out.append(buf.data(), n);
    status = pclose(p);
    std::ifstream err_file(err_log);
    err.assign(std::istreambuf_iterator<char>(err_file), std::istreambuf_iterator<char>());
    if (err.find("Failed to open X11 display") == std::string::npos)
      break;
  }
  return status;
}

// `cbi view --size 256 --stencil 9x9 --lines 64 --granularity exact`, its own help's example, ended
// in "--bin: the diagram would be 17401 x 3970 px" (exit 2): fitting the cells to the window tried
// cells too wide for a diagram of one column per access, and that probe's refusal ended the viewer.
TEST(View, OneColumnPerAccessFitsTheWindow) {
  if (!have_xvfb())
    GTEST_SKIP() << "Xvfb is not installed (Debian: xvfb)";
  const std::string dir = ::testing::TempDir() + "/cbi_view_exact_" + std::to_string(getpid());
  ASSERT_EQ(std::system(("mkdir -p '" + dir + "'").c_str()), 0);
  std::string out, err;
  const int status = view_under_xvfb(dir, "--size 256 --stencil 9x9 --lines 64 --granularity exact",
                                     "quit", out, err);
  ASSERT_TRUE(WIFEXITED(status) && WEXITSTATUS(status) == 0) << out << "\nstderr:\n" << err;
  EXPECT_NE(after(out, "quit").find("drawn at 1:1"), std::string::npos) << out;
}

TEST(View, ScriptedSessionUnderXvfb) {
  if (!have_xvfb())
    GTEST_SKIP() << "Xvfb is not installed (Debian: xvfb)";
  // Files of this run's own (two checkouts' test runs on one machine share the temp folder).
  const std::string dir = ::testing::TempDir() + "/cbi_view_" + std::to_string(getpid());
  ASSERT_EQ(std::system(("mkdir -p '" + dir + "'").c_str()), 0);
  const std::string end_png = dir + "/cbi_view_end.png", start_png = dir + "/cbi_view_start.png";
  std::remove(end_png.c_str());
  std::remove(start_png.c_str());
  const std::string plain_png = dir + "/cbi_view_plain.png", zoom_png = dir + "/cbi_view_zoom.png";
  std::remove(plain_png.c_str());
  std::remove(zoom_png.c_str());
  // Key names as the keys help spells them (], +), and SFML's (RBracket) still accepted.
  const std::string script = "shot:" + plain_png + ";hover:0,0;shot:" + end_png +
                             ";key:Home;shot:" + start_png +
                             ";key:Space;wait:30;key:Space;key:O;key:];key:Shift+Right;"
                             "key:+;zoom:2;drag:40,20;key:End;shot:" +
                             zoom_png + ";key:RBracket;quit";
  std::string out, err;
  const int status = view_under_xvfb(
      dir, "--preset fig3.1 --order linear --order column:4 --window 1200x700", script, out, err);
  ASSERT_TRUE(WIFEXITED(status) && WEXITSTATUS(status) == 0) << out << "\nstderr:\n" << err;

  // Hover readout of the first cell: thread 0 is task (0, 0); line 0 holds input (-3, -3) of the
  // unclamped 7x7 window and is thread 0's first fetch.
  EXPECT_NE(after(out, "hover:0,0")
                .find("hover: thread 0, task (0, 0), line 0, address 0, input "
                      "row -3 col -3, state miss (fetched)"),
            std::string::npos)
      << out;
  EXPECT_NE(after(out, "key:Home").find("t 0/255 paused"), std::string::npos) << out;
  // Playback moved the cursor, and pausing stopped it.
  const std::string paused = after(out, "key:Space");
  EXPECT_NE(paused.find("paused"), std::string::npos) << out;
  EXPECT_EQ(paused.find("t 0/255"), std::string::npos) << out;
  // Keys switch the order and the cache size; the stats follow (Table 3.1: column:4 misses less).
  EXPECT_NE(after(out, "key:O").find("order column:4, L1 24 lines"), std::string::npos) << out;
  EXPECT_NE(after(out, "key:O").find("misses 264"), std::string::npos) << out;
  EXPECT_NE(after(out, "key:]").find("order column:4, L1 48 lines"), std::string::npos) << out;
  EXPECT_NE(after(out, "key:RBracket").find("order column:4, L1 96 lines"), std::string::npos)
      << out;

  // Screenshots of the window: the diagram is on screen, the side panel has text, and at t = 0
  // almost every miss is still ahead (only the first column and the legend swatch show one).
  const Canvas end = load_png(end_png), start = load_png(start_png);
  ASSERT_EQ(end.width(), 1200);
  ASSERT_EQ(end.height(), 700);
  const Color miss = Palette::standard(1).of(cell::served + 1);
  const int64_t miss_end = count(end, miss, 0, 1200 - 380);
  const int64_t miss_start = count(start, miss, 0, 1200 - 380);
  EXPECT_GT(miss_end, 1000);
  EXPECT_LT(miss_start * 5, miss_end);
  EXPECT_GT(count(end, Color{25, 25, 25, 255}, 1200 - 380, 1200), 100); // panel text
  // The diagram is drawn 1:1, so text keeps its size; zooming (+ is 1.25x, then 2x) narrows the
  // window of cells while the axes stay, drawn again for it.
  EXPECT_NE(after(out, "hover:0,0").find("drawn at 1:1"), std::string::npos) << out;
  // Zooming keeps the centre: 256 / 2.5 = 102.4 columns around column 128.
  EXPECT_NE(after(out, "zoom:2").find("zoom 2.5x cols 76-179 "), std::string::npos) << out;
  const Canvas zoomed = load_png(zoom_png);
  const Color tick_ink{95, 95, 95, 255};
  EXPECT_GT(count(zoomed, tick_ink, 0, 60), 20);        // left axis labels, pinned at the left edge
  EXPECT_GT(count(zoomed, miss, 60, 1200 - 380), 1000); // cells, drawn larger

  // The hovered cell is outlined in magenta; before any hover nothing is.
  const Color hover{255, 0, 255, 255};
  EXPECT_EQ(count(load_png(plain_png), hover, 0, 1200 - 380), 0);
  EXPECT_GT(count(end, hover, 0, 1200 - 380), 4);
}

TEST(View, NeedsADisplayAndSaysSo) {
  const std::string cmd =
      "env -u DISPLAY " + bin_dir() + "/cbi view --preset fig3.1 >/dev/null 2>&1";
  const int status = std::system(cmd.c_str());
  EXPECT_TRUE(WIFEXITED(status));
  EXPECT_EQ(WEXITSTATUS(status), 1);
}

// A DISPLAY that names no server made SFML abort the process (exit 134, SIGABRT); a bad --script
// step was found mid-run, or not at all (wait:abc waited 0 frames), and after the display check.
// The display is one that no X server holds (neither its socket nor its lock file exists): a fixed
// :97 was once held by an Xvfb someone had started by hand, and the viewer ran on it until ctest's
// timeout.
std::string unused_display() {
  for (int n = 97; n < 1000; ++n) {
    const std::string k = std::to_string(n);
    if (!std::filesystem::exists("/tmp/.X11-unix/X" + k) &&
        !std::filesystem::exists("/tmp/.X" + k + "-lock"))
      return ":" + k;
  }
  return ":999";
}

TEST(View, AnUnreachableDisplayOrABadScriptIsOneLine) {
  const std::string display = unused_display();
  const test::CliRun unreachable =
      test::run_program("cbi", "view --preset fig3.1", "DISPLAY=" + display + " ");
  EXPECT_EQ(unreachable.exit_code, 1) << unreachable.err;
  EXPECT_EQ(unreachable.err, "cbi view: cannot open the display '" + display +
                                 "' (DISPLAY); run it under "
                                 "xvfb-run, or use cbi diagram, which needs none\n");
  for (const char *script : {"bogus:1", "wait:abc", "key:O*x", "zoom:2x", "hover:1,2,3",
                             "shot:/nonexistent/a.png", "key:O;key:Nope"}) {
    test::expect_usage_error(std::string("view --preset fig3.1 --script '") + script + "'",
                             "cbi view: --script: ");
  }
}

} // namespace
} // namespace cbi::viz
