// cuBLAS as the matmul ceiling. cuBLAS is column-major; a row-major C = A B is the column-major
// C^T = B^T A^T, so B goes first and the extents swap. Half runs cublasGemmEx with fp16 storage
// and fp32 accumulation (the Hgemm data path, with the same accumulator as the cbi kernels).
//
// libcublas is opened with dlopen on first use: linking it would cost every `cbi` start about
// 0.5 s and 200 MB (its initialisers), and `cbi simulate` needs none of it.
#include "launch.hpp"

#include <cuda_fp16.h>
#include <dlfcn.h>

#include <mutex>
#include <stdexcept>
#include <string>

namespace cbi::kernels::detail {

namespace {

#define CBI_STR2(x) #x
#define CBI_STR(x) CBI_STR2(x)

// The entry points cbi calls, by their exported (_v2) names.
struct CublasApi {
  decltype(&cublasCreate_v2) create = nullptr;
  decltype(&cublasDestroy_v2) destroy = nullptr;
  decltype(&cublasSetStream_v2) set_stream = nullptr;
  decltype(&cublasSgemm_v2) sgemm = nullptr;
  decltype(&cublasDgemm_v2) dgemm = nullptr;
  // cublasGemmEx is overloaded in C++ (an inline wrapper), so its type is spelled out.
  cublasStatus_t (*gemm_ex)(cublasHandle_t, cublasOperation_t, cublasOperation_t, int, int, int,
                            const void *, const void *, cudaDataType, int, const void *,
                            cudaDataType, int, const void *, void *, cudaDataType, int,
                            cublasComputeType_t, cublasGemmAlgo_t) = nullptr;
  const char *(*status_string)(cublasStatus_t) = nullptr;
  cublasHandle_t handle = nullptr;
  std::string error; // why cuBLAS could not be loaded, or ""
};

template <class F> void resolve(void *lib, const char *name, F &field, std::string &error) {
  field = reinterpret_cast<F>(dlsym(lib, name));
  if (!field && error.empty())
    error = std::string("libcublas lacks ") + name;
}

std::mutex g_mutex;
CublasApi *g_api = nullptr;

// Loads libcublas from the loader's search path, then from the toolkit this was built against.
CublasApi &api() {
  std::lock_guard<std::mutex> lock(g_mutex);
  if (g_api)
    return *g_api;
  g_api = new CublasApi;
  const std::string soname = "libcublas.so." CBI_STR(CUBLAS_VER_MAJOR);
  void *lib = nullptr;
  for (const std::string &path : {soname, std::string(CBI_CUDA_LIBRARY_DIR) + "/" + soname,
                                  "/usr/local/cuda/lib64/" + soname})
    if ((lib = dlopen(path.c_str(), RTLD_NOW | RTLD_LOCAL)))
      break;
  if (!lib) {
    g_api->error = "cannot load " + soname + ": " + dlerror();
    return *g_api;
  }
  std::string &e = g_api->error;
  resolve(lib, "cublasCreate_v2", g_api->create, e);
  resolve(lib, "cublasDestroy_v2", g_api->destroy, e);
  resolve(lib, "cublasSetStream_v2", g_api->set_stream, e);
  resolve(lib, "cublasSgemm_v2", g_api->sgemm, e);
  resolve(lib, "cublasDgemm_v2", g_api->dgemm, e);
  resolve(lib, "cublasGemmEx", g_api->gemm_ex, e);
  resolve(lib, "cublasGetStatusString", g_api->status_string, e);
  if (e.empty() && g_api->create(&g_api->handle) != CUBLAS_STATUS_SUCCESS)
    e = "cublasCreate failed";
  return *g_api;
}

} // namespace

void release_cublas() {
  std::lock_guard<std::mutex> lock(g_mutex);
  if (g_api && g_api->handle) {
    g_api->destroy(g_api->handle);
    g_api->handle = nullptr;
    g_api->error = "cuBLAS was released";
    delete g_api;
    g_api = nullptr;
  }
}

LaunchInfo launch_cublas(const BenchConfig &c, const LaunchContext &ctx, bool enqueue) {
  LaunchInfo info;
  const int m = int(c.height), n = int(c.width), k = int(c.effective_depth());
  switch (c.type) {
  case ElemType::half:
    info.name = "cublasGemmEx<fp16, fp32 accumulate>";
    break;
  case ElemType::float64:
    info.name = "cublasDgemm";
    break;
  default:
    info.name = "cublasSgemm";
  }
  if (!enqueue)
    return info;
  CublasApi &cb = api();
  if (!cb.error.empty())
    throw std::runtime_error(info.name + ": " + cb.error);
  cb.set_stream(cb.handle, ctx.stream);
  cublasStatus_t status = CUBLAS_STATUS_SUCCESS;
  if (c.type == ElemType::float32) {
    const float one = 1, zero = 0;
    status = cb.sgemm(cb.handle, CUBLAS_OP_N, CUBLAS_OP_N, n, m, k, &one,
                      static_cast<const float *>(ctx.b), n, static_cast<const float *>(ctx.a), k,
                      &zero, static_cast<float *>(ctx.out), n);
  } else if (c.type == ElemType::float64) {
    const double one = 1, zero = 0;
    status = cb.dgemm(cb.handle, CUBLAS_OP_N, CUBLAS_OP_N, n, m, k, &one,
                      static_cast<const double *>(ctx.b), n, static_cast<const double *>(ctx.a), k,
                      &zero, static_cast<double *>(ctx.out), n);
  } else {
    const float one = 1, zero = 0;
    status = cb.gemm_ex(cb.handle, CUBLAS_OP_N, CUBLAS_OP_N, n, m, k, &one, ctx.b, CUDA_R_16F, n,
                        ctx.a, CUDA_R_16F, k, &zero, ctx.out, CUDA_R_16F, n, CUBLAS_COMPUTE_32F,
                        CUBLAS_GEMM_DEFAULT);
  }
  if (status != CUBLAS_STATUS_SUCCESS)
    throw std::runtime_error(info.name + " failed: " + cb.status_string(status));
  return info;
}

} // namespace cbi::kernels::detail
