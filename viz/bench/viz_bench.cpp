// viz_bench: time to render a binned diagram of a 4096^2 9x9 stencil (issue 3's target: < 5 s on
// the 2-core CI machine), split into the replay that fills the grid, drawing, and PNG encoding,
// with `sim::simulate` on the same trace as the floor. Prints a markdown table; --csv FILE too.
// usage: viz_bench [--runs N] [--size N] [--granularity thread|exact] [--csv FILE]
#include "cbi/viz/diagram.hpp"
#include "diagram_options.hpp"

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <ctime>
#include <fstream>
#include <string>
#include <unistd.h>
#include <vector>

namespace {

using Clock = std::chrono::steady_clock;
double since(Clock::time_point t) {
  return std::chrono::duration<double>(Clock::now() - t).count();
}

// CPU seconds of this thread: unlike wall time, not inflated while other processes hold the cores
// (the CI machine is shared).
double cpu_now() {
  timespec ts{};
  clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
  return static_cast<double>(ts.tv_sec) + 1e-9 * static_cast<double>(ts.tv_nsec);
}

double median(std::vector<double> v) {
  std::sort(v.begin(), v.end());
  return v.size() % 2 ? v[v.size() / 2] : (v[v.size() / 2 - 1] + v[v.size() / 2]) / 2;
}

std::string cpu_name() {
  std::ifstream f("/proc/cpuinfo");
  std::string line;
  while (std::getline(f, line))
    if (line.rfind("model name", 0) == 0)
      return line.substr(line.find(':') + 2);
  return "unknown CPU";
}

} // namespace

int main(int argc, char **argv) {
  int runs = 5;
  int64_t size = 4096;
  std::string granularity = "thread", csv;
  for (int i = 1; i + 1 < argc; i += 2) {
    if (!std::strcmp(argv[i], "--runs"))
      runs = std::max(1, std::atoi(argv[i + 1]));
    else if (!std::strcmp(argv[i], "--size"))
      size = std::max(16, std::atoi(argv[i + 1]));
    else if (!std::strcmp(argv[i], "--granularity"))
      granularity = argv[i + 1];
    else if (!std::strcmp(argv[i], "--csv"))
      csv = argv[i + 1];
  }
  using namespace cbi;
  // Exactly what `cbi diagram --size N --stencil 9x9 [--granularity G]` renders, parsed as it
  // parses: Table 3.1's cache (24 lines of 16 B, LRU) and the diagram's default binning (cells of
  // at least 3 px in a figure about 1200 px wide).
  const viz_app::DiagramRequest req =
      viz_app::parse_diagram_args({"cbi diagram", "--size", std::to_string(size), "--stencil",
                                   "9x9", "--granularity", granularity});
  const viz::GridSpec &spec = req.panels.at(0);
  double load[3] = {0, 0, 0};
  getloadavg(load, 3);
  std::printf("# viz_bench: %s, %ld cores, load %.2f at start\n", cpu_name().c_str(),
              sysconf(_SC_NPROCESSORS_ONLN), load[0]);
  std::printf("# %s, %s granularity, %lld x %lld steps x lines per cell\n\n",
              spec.sim.workload.describe().c_str(), granularity.c_str(),
              static_cast<long long>(spec.bins.time_bin),
              static_cast<long long>(spec.bins.line_bin));
  std::vector<double> replay, draw, png, total, floor, total_cpu, floor_cpu;
  const std::string out = "/tmp/viz_bench_" + std::to_string(getpid()) + ".png";
  for (int r = 0; r < runs; ++r) {
    const double c0 = cpu_now();
    const auto t0 = Clock::now();
    const viz::Grid g = viz::build_grid(spec);
    replay.push_back(since(t0));
    const auto t1 = Clock::now();
    const viz::Canvas c = viz::render_diagram({g}, req.style);
    draw.push_back(since(t1));
    const auto t2 = Clock::now();
    c.save_png(out);
    png.push_back(since(t2));
    total.push_back(since(t0));
    total_cpu.push_back(cpu_now() - c0);
    const double c3 = cpu_now();
    const auto t3 = Clock::now();
    cbi::sim::simulate(spec.sim);
    floor.push_back(since(t3));
    floor_cpu.push_back(cpu_now() - c3);
    std::fprintf(stderr, "run %d: %.2f s\n", r + 1, total.back());
  }
  std::remove(out.c_str());
  std::printf("| phase | median s | min s | max s |\n| --- | --- | --- | --- |\n");
  const std::pair<const char *, std::vector<double> *> rows[] = {
      {"replay into the grid (simulate_observed)", &replay},
      {"draw (cells, axes, text)", &draw},
      {"PNG encode + write", &png},
      {"**total diagram**", &total},
      {"total diagram, CPU time of the thread", &total_cpu},
      {"sim::simulate alone (floor)", &floor},
      {"sim::simulate alone, CPU time", &floor_cpu}};
  std::ofstream f;
  if (!csv.empty()) {
    f.open(csv);
    f << "phase,median_s,min_s,max_s,runs\n";
  }
  for (const auto &[name, v] : rows) {
    const double lo = *std::min_element(v->begin(), v->end());
    const double hi = *std::max_element(v->begin(), v->end());
    std::printf("| %s | %.2f | %.2f | %.2f |\n", name, median(*v), lo, hi);
    if (f)
      f << '"' << name << "\"," << median(*v) << ',' << lo << ',' << hi << ',' << runs << '\n';
  }
  getloadavg(load, 3);
  std::printf("\nload %.2f at end; %d runs\n", load[0], runs);
  return 0;
}
