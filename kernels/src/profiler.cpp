// Hardware counters in-process with the CUPTI range profiler. The host object turns metric names
// into a configuration once; each collect() enables the range profiler on the context, replays
// the launch once per pass in a user range (each pass after an L2 flush, like ncu's default
// --cache-control all) and evaluates the metrics. The profiler is disabled between collections so
// that timed launches run unobserved.
#include "profiler.hpp"

#include <cuda.h>
#include <cuda_runtime.h>
#include <cupti_profiler_host.h>
#include <cupti_profiler_target.h>
#include <cupti_range_profiler.h>
#include <cupti_result.h>
#include <cupti_target.h>

#include <stdexcept>
#include <vector>

namespace cbi::kernels::detail {

namespace {

// One line for a failed CUPTI call, with the usual causes spelled out.
std::string cupti_message(const char *call, CUptiResult r) {
  const char *text = nullptr;
  cuptiGetResultString(r, &text);
  std::string m = std::string(call) + " failed: " + (text ? text : "unknown CUPTI error");
  if (r == CUPTI_ERROR_INSUFFICIENT_PRIVILEGES ||
      r == CUPTI_ERROR_VIRTUALIZED_DEVICE_INSUFFICIENT_PRIVILEGES)
    m += " (counters need root or the driver option NVreg_RestrictProfilingToAdminUsers=0)";
  else if (r == CUPTI_ERROR_MULTIPLE_SUBSCRIBERS_NOT_SUPPORTED)
    m += " (another profiler, such as ncu, already holds the counters)";
  return m;
}

// A zeroed CUPTI parameter struct with its size set, as every CUPTI call expects.
template <class P> P params(size_t struct_size) {
  P p{};
  p.structSize = struct_size;
  return p;
}

#define CBI_CUPTI_PARAMS(Type) params<Type>(Type##_STRUCT_SIZE)

struct CuptiFailure : std::runtime_error {
  using std::runtime_error::runtime_error;
};

void check(CUptiResult r, const char *call) {
  if (r != CUPTI_SUCCESS)
    throw CuptiFailure(cupti_message(call, r));
}

void check_cuda(cudaError_t e, const char *what) {
  if (e != cudaSuccess)
    throw CuptiFailure(std::string(what) + " failed: " + cudaGetErrorString(e));
}

const char *support_word(CUpti_Profiler_Support_Level l) {
  switch (l) {
  case CUPTI_PROFILER_CONFIGURATION_UNSUPPORTED:
    return "unsupported";
  case CUPTI_PROFILER_CONFIGURATION_DISABLED:
    return "disabled";
  case CUPTI_PROFILER_CONFIGURATION_SUPPORTED:
    return "supported";
  default:
    return "unknown";
  }
}

// The current context through the runtime's driver entry point, so that cbi need not link
// libcuda (which machines without a driver lack).
CUcontext current_context() {
  using GetCurrent = CUresult (*)(CUcontext *);
  void *fn = nullptr;
  cudaDriverEntryPointQueryResult query{};
  check_cuda(
      cudaGetDriverEntryPointByVersion("cuCtxGetCurrent", &fn, 12000, cudaEnableDefault, &query),
      "cudaGetDriverEntryPointByVersion(cuCtxGetCurrent)");
  if (!fn || query != cudaDriverEntryPointSuccess)
    throw CuptiFailure("the driver does not provide cuCtxGetCurrent");
  CUcontext ctx = nullptr;
  if (reinterpret_cast<GetCurrent>(fn)(&ctx) != CUDA_SUCCESS || !ctx)
    throw CuptiFailure("no current CUDA context");
  return ctx;
}

} // namespace

struct CounterProfiler::State {
  CUcontext ctx = nullptr;
  CUpti_Profiler_Host_Object *host = nullptr;
  std::vector<uint8_t> config;
  std::vector<const char *> names;
  size_t passes = 0;

  ~State() {
    if (host) {
      auto p = CBI_CUPTI_PARAMS(CUpti_Profiler_Host_Deinitialize_Params);
      p.pHostObject = host;
      cuptiProfilerHostDeinitialize(&p);
    }
  }
};

CounterProfiler::CounterProfiler(int device) {
  try {
    auto state = std::make_unique<State>();
    for (const std::string &n : metric_names())
      state->names.push_back(n.c_str());
    check_cuda(cudaSetDevice(device), "cudaSetDevice");
    check_cuda(cudaFree(nullptr), "creating the CUDA context");
    state->ctx = current_context();

    auto init = CBI_CUPTI_PARAMS(CUpti_Profiler_Initialize_Params);
    check(cuptiProfilerInitialize(&init), "cuptiProfilerInitialize");

    auto sup = CBI_CUPTI_PARAMS(CUpti_Profiler_DeviceSupported_Params);
    sup.cuDevice = device;
    sup.api = CUPTI_PROFILER_RANGE_PROFILING;
    check(cuptiProfilerDeviceSupported(&sup), "cuptiProfilerDeviceSupported");
    if (sup.isSupported != CUPTI_PROFILER_CONFIGURATION_SUPPORTED)
      throw CuptiFailure(std::string("the device does not allow range profiling (architecture ") +
                         support_word(sup.architecture) + ", vGPU " + support_word(sup.vGpu) +
                         ", confidential compute " + support_word(sup.confidentialCompute) +
                         ", CMP " + support_word(sup.cmp) + ", WSL " + support_word(sup.wsl) + ")");

    auto chip = CBI_CUPTI_PARAMS(CUpti_Device_GetChipName_Params);
    chip.deviceIndex = size_t(device);
    check(cuptiDeviceGetChipName(&chip), "cuptiDeviceGetChipName");

    auto avail = CBI_CUPTI_PARAMS(CUpti_Profiler_GetCounterAvailability_Params);
    avail.ctx = state->ctx;
    check(cuptiProfilerGetCounterAvailability(&avail), "cuptiProfilerGetCounterAvailability");
    std::vector<uint8_t> availability(avail.counterAvailabilityImageSize);
    avail.pCounterAvailabilityImage = availability.data();
    check(cuptiProfilerGetCounterAvailability(&avail), "cuptiProfilerGetCounterAvailability");

    auto hi = CBI_CUPTI_PARAMS(CUpti_Profiler_Host_Initialize_Params);
    hi.profilerType = CUPTI_PROFILER_TYPE_RANGE_PROFILER;
    hi.pChipName = chip.pChipName;
    hi.pCounterAvailabilityImage = availability.data();
    check(cuptiProfilerHostInitialize(&hi), "cuptiProfilerHostInitialize");
    state->host = hi.pHostObject;

    auto add = CBI_CUPTI_PARAMS(CUpti_Profiler_Host_ConfigAddMetrics_Params);
    add.pHostObject = state->host;
    add.ppMetricNames = state->names.data();
    add.numMetrics = state->names.size();
    check(cuptiProfilerHostConfigAddMetrics(&add), "cuptiProfilerHostConfigAddMetrics");
    auto size = CBI_CUPTI_PARAMS(CUpti_Profiler_Host_GetConfigImageSize_Params);
    size.pHostObject = state->host;
    check(cuptiProfilerHostGetConfigImageSize(&size), "cuptiProfilerHostGetConfigImageSize");
    state->config.resize(size.configImageSize);
    auto image = CBI_CUPTI_PARAMS(CUpti_Profiler_Host_GetConfigImage_Params);
    image.pHostObject = state->host;
    image.configImageSize = state->config.size();
    image.pConfigImage = state->config.data();
    check(cuptiProfilerHostGetConfigImage(&image), "cuptiProfilerHostGetConfigImage");
    auto passes = CBI_CUPTI_PARAMS(CUpti_Profiler_Host_GetNumOfPasses_Params);
    passes.configImageSize = state->config.size();
    passes.pConfigImage = state->config.data();
    check(cuptiProfilerHostGetNumOfPasses(&passes), "cuptiProfilerHostGetNumOfPasses");
    state->passes = passes.numOfPasses;
    m_state = std::move(state);
  } catch (const CuptiFailure &e) {
    m_why = e.what();
  }
}

CounterProfiler::~CounterProfiler() = default;

Metrics CounterProfiler::collect(const std::function<void()> &before_pass,
                                 const std::function<void()> &launch) {
  Metrics m;
  if (!m_state) {
    m.why = m_why;
    return m;
  }
  State &s = *m_state;
  CUpti_RangeProfiler_Object *object = nullptr;
  try {
    auto enable = CBI_CUPTI_PARAMS(CUpti_RangeProfiler_Enable_Params);
    enable.ctx = s.ctx;
    check(cuptiRangeProfilerEnable(&enable), "cuptiRangeProfilerEnable");
    object = enable.pRangeProfilerObject;

    auto size = CBI_CUPTI_PARAMS(CUpti_RangeProfiler_GetCounterDataSize_Params);
    size.pRangeProfilerObject = object;
    size.pMetricNames = s.names.data();
    size.numMetrics = s.names.size();
    size.maxNumOfRanges = 1;
    size.maxNumRangeTreeNodes = 1;
    check(cuptiRangeProfilerGetCounterDataSize(&size), "cuptiRangeProfilerGetCounterDataSize");
    std::vector<uint8_t> counter_data(size.counterDataSize);
    auto init = CBI_CUPTI_PARAMS(CUpti_RangeProfiler_CounterDataImage_Initialize_Params);
    init.pRangeProfilerObject = object;
    init.counterDataSize = counter_data.size();
    init.pCounterData = counter_data.data();
    check(cuptiRangeProfilerCounterDataImageInitialize(&init),
          "cuptiRangeProfilerCounterDataImageInitialize");

    auto config = CBI_CUPTI_PARAMS(CUpti_RangeProfiler_SetConfig_Params);
    config.pRangeProfilerObject = object;
    config.configSize = s.config.size();
    config.pConfig = s.config.data();
    config.counterDataImageSize = counter_data.size();
    config.pCounterDataImage = counter_data.data();
    config.range = CUPTI_UserRange;
    config.replayMode = CUPTI_UserReplay;
    config.maxRangesPerPass = 1;
    config.numNestingLevels = 1;
    config.minNestingLevel = 1;
    config.passIndex = 0;
    config.targetNestingLevel = 1;
    check(cuptiRangeProfilerSetConfig(&config), "cuptiRangeProfilerSetConfig");

    bool all_submitted = false;
    int passes = 0;
    while (!all_submitted) {
      if (++passes > 64)
        throw CuptiFailure("the range profiler did not finish within 64 passes");
      before_pass();
      check_cuda(cudaDeviceSynchronize(), "preparing a profiler pass");
      auto start = CBI_CUPTI_PARAMS(CUpti_RangeProfiler_Start_Params);
      start.pRangeProfilerObject = object;
      check(cuptiRangeProfilerStart(&start), "cuptiRangeProfilerStart");
      auto push = CBI_CUPTI_PARAMS(CUpti_RangeProfiler_PushRange_Params);
      push.pRangeProfilerObject = object;
      push.pRangeName = "cbi";
      check(cuptiRangeProfilerPushRange(&push), "cuptiRangeProfilerPushRange");
      launch();
      check_cuda(cudaDeviceSynchronize(), "the profiled launch");
      auto pop = CBI_CUPTI_PARAMS(CUpti_RangeProfiler_PopRange_Params);
      pop.pRangeProfilerObject = object;
      check(cuptiRangeProfilerPopRange(&pop), "cuptiRangeProfilerPopRange");
      auto stop = CBI_CUPTI_PARAMS(CUpti_RangeProfiler_Stop_Params);
      stop.pRangeProfilerObject = object;
      check(cuptiRangeProfilerStop(&stop), "cuptiRangeProfilerStop");
      all_submitted = stop.isAllPassSubmitted != 0;
    }
    auto decode = CBI_CUPTI_PARAMS(CUpti_RangeProfiler_DecodeData_Params);
    decode.pRangeProfilerObject = object;
    check(cuptiRangeProfilerDecodeData(&decode), "cuptiRangeProfilerDecodeData");
    if (decode.numOfRangeDropped != 0)
      throw CuptiFailure("the range profiler dropped the range");

    std::vector<double> values(s.names.size());
    auto eval = CBI_CUPTI_PARAMS(CUpti_Profiler_Host_EvaluateToGpuValues_Params);
    eval.pHostObject = s.host;
    eval.pCounterDataImage = counter_data.data();
    eval.counterDataImageSize = counter_data.size();
    eval.rangeIndex = 0;
    eval.ppMetricNames = s.names.data();
    eval.numMetrics = s.names.size();
    eval.pMetricValues = values.data();
    check(cuptiProfilerHostEvaluateToGpuValues(&eval), "cuptiProfilerHostEvaluateToGpuValues");

    m.available = true;
    m.passes = passes;
    m.l1_hit_pct = values[0];
    m.l1_global_load_hits = values[1];
    m.l1_global_load_misses = values[2];
    m.l2_hit_pct = values[3];
    m.l2_to_l1_sectors = values[4];
    m.dram_read_bytes = values[5];
  } catch (const CuptiFailure &e) {
    m.why = e.what();
  }
  if (object) {
    auto disable = CBI_CUPTI_PARAMS(CUpti_RangeProfiler_Disable_Params);
    disable.pRangeProfilerObject = object;
    cuptiRangeProfilerDisable(&disable);
  }
  return m;
}

} // namespace cbi::kernels::detail
