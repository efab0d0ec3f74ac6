// oneDNN's reorder between two NCHW-family formats of f32, timed in a loop (benchmarks/reorder.py).
#include <chrono>
#include <dnnl.hpp>
#include <string>

namespace {
dnnl::memory::format_tag tag(const std::string &name) {
  if (name == "nchw") return dnnl::memory::format_tag::nchw;
  if (name == "nhwc") return dnnl::memory::format_tag::nhwc;
  if (name == "nChw16c") return dnnl::memory::format_tag::nChw16c;
  if (name == "oihw") return dnnl::memory::format_tag::oihw;
  if (name == "OIhw16i16o") return dnnl::memory::format_tag::OIhw16i16o;
  return dnnl::memory::format_tag::undef;
}
struct Reorder {
  dnnl::engine engine{dnnl::engine::kind::cpu, 0};
  dnnl::stream stream{engine};
  dnnl::memory source, target;
  dnnl::reorder primitive;
};
}  // namespace

extern "C" void *hl_reorder_create(long n, long c, long h, long w, const char *from,
                                   const char *to, void *source, void *target) {
  auto *r = new Reorder();
  dnnl::memory::dims dims{n, c, h, w};
  auto f32 = dnnl::memory::data_type::f32;
  r->source = dnnl::memory({dims, f32, tag(from)}, r->engine, source);
  r->target = dnnl::memory({dims, f32, tag(to)}, r->engine, target);
  r->primitive = dnnl::reorder(r->source, r->target);
  return r;
}

extern "C" double hl_reorder_time(void *handle, long calls) {
  auto *r = static_cast<Reorder *>(handle);
  auto start = std::chrono::steady_clock::now();
  for (long i = 0; i < calls; ++i) r->primitive.execute(r->stream, r->source, r->target);
  r->stream.wait();
  std::chrono::duration<double> elapsed = std::chrono::steady_clock::now() - start;
  return elapsed.count();
}

extern "C" void hl_reorder_destroy(void *handle) { delete static_cast<Reorder *>(handle); }
