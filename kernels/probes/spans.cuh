// The L1 throughput probes' reading of their CTAs' spans (l1_lines, l1_rate): thread 0 of each CTA
// wrote its clock64 span and its SM; per SM, cycles a request = the SM's longest CTA span / the
// requests of its CTAs.
#pragma once

#include "check.cuh"

#include <cuda_runtime.h>

#include <algorithm>
#include <vector>

// The SMs' cycles a request, ascending, over the SMs that ran a CTA: `ctas` CTAs' spans (d_span)
// and SMs (d_sm) on a device of `sms` SMs, each CTA making `requests_per_cta` warp loads.
inline std::vector<double> cycles_per_request_by_sm(const long long *d_span, const unsigned *d_sm,
                                                    int ctas, int sms, double requests_per_cta) {
  std::vector<long long> span(ctas);
  std::vector<unsigned> sm(ctas);
  CHECK(cudaMemcpy(span.data(), d_span, ctas * sizeof(long long), cudaMemcpyDeviceToHost));
  CHECK(cudaMemcpy(sm.data(), d_sm, ctas * sizeof(unsigned), cudaMemcpyDeviceToHost));
  std::vector<long long> longest(sms, 0);
  std::vector<int> count(sms, 0);
  for (int c = 0; c < ctas; ++c) {
    longest[sm[c] % sms] = std::max(longest[sm[c] % sms], span[c]);
    ++count[sm[c] % sms];
  }
  std::vector<double> per;
  for (int s = 0; s < sms; ++s)
    if (count[s] > 0)
      per.push_back(double(longest[s]) / (double(count[s]) * requests_per_cta));
  std::sort(per.begin(), per.end());
  return per;
}
