// oneDNN direct convolution timed one call at a time (benchmarks/schedule.py builds and runs it).
//   onednn_conv N C H W K R S REPEAT
// Prints "primitive" then "reorders" followed by REPEAT times in seconds: the convolution
// alone, in the formats it chooses (format_tag::any), and the same with the reorders from
// and to plain NCHW / OIHW user buffers around it. Inputs are small integers, so every sum
// is exact in f32; the checksum line lets the caller compare with numpy.
#include <dnnl.hpp>

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <vector>

using namespace dnnl;
using tag = memory::format_tag;
using dt = memory::data_type;

static double seconds_since(std::chrono::steady_clock::time_point start) {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
}

int main(int argc, char **argv) {
  if (argc != 9) {
    std::fprintf(stderr, "usage: %s N C H W K R S REPEAT\n", argv[0]);
    return 1;
  }
  const memory::dim n = atoi(argv[1]), c = atoi(argv[2]), h = atoi(argv[3]), w = atoi(argv[4]);
  const memory::dim k = atoi(argv[5]), r = atoi(argv[6]), s = atoi(argv[7]);
  const int repeat = atoi(argv[8]);
  const memory::dim oh = h - r + 1, ow = w - s + 1;
  engine eng(engine::kind::cpu, 0);
  stream st(eng);
  memory::desc user_src({n, c, h, w}, dt::f32, tag::nchw);
  memory::desc user_wei({k, c, r, s}, dt::f32, tag::oihw);
  memory::desc user_dst({n, k, oh, ow}, dt::f32, tag::nchw);
  auto pd = convolution_forward::primitive_desc(
      eng, prop_kind::forward_inference, algorithm::convolution_direct,
      memory::desc({n, c, h, w}, dt::f32, tag::any), memory::desc({k, c, r, s}, dt::f32, tag::any),
      memory::desc({n, k, oh, ow}, dt::f32, tag::any), {1, 1}, {0, 0}, {0, 0});
  memory src_user(user_src, eng), wei_user(user_wei, eng), dst_user(user_dst, eng);
  float *x = static_cast<float *>(src_user.get_data_handle());
  float *wt = static_cast<float *>(wei_user.get_data_handle());
  for (memory::dim i = 0; i < c * h * w * n; ++i) {
    memory::dim ci = (i / (h * w)) % c, hi = (i / w) % h, wi = i % w;
    x[i] = float((ci * 7 + hi * 3 + wi * 5) % 17 - 8);
  }
  for (memory::dim i = 0; i < k * c * r * s; ++i) {
    memory::dim ki = i / (c * r * s), ci = (i / (r * s)) % c, ri = (i / s) % r, si = i % s;
    wt[i] = float((ki * 5 + ci * 3 + ri * 7 + si) % 9 - 4);
  }
  memory src(pd.src_desc(), eng), wei(pd.weights_desc(), eng), dst(pd.dst_desc(), eng);
  reorder to_src(src_user, src), to_wei(wei_user, wei), to_dst(dst, dst_user);
  convolution_forward conv(pd);
  auto run_conv = [&] {
    conv.execute(st, {{DNNL_ARG_SRC, src}, {DNNL_ARG_WEIGHTS, wei}, {DNNL_ARG_DST, dst}});
  };
  auto run_all = [&] {
    to_src.execute(st, src_user, src);
    to_wei.execute(st, wei_user, wei);
    run_conv();
    to_dst.execute(st, dst, dst_user);
  };
  run_all();
  st.wait();
  std::printf("implementation %s\n", pd.impl_info_str());
  std::vector<double> alone, with_reorders;
  for (int i = 0; i < repeat; ++i) {
    auto start = std::chrono::steady_clock::now();
    run_conv();
    st.wait();
    alone.push_back(seconds_since(start));
    start = std::chrono::steady_clock::now();
    run_all();
    st.wait();
    with_reorders.push_back(seconds_since(start));
  }
  std::printf("primitive");
  for (double t : alone) std::printf(" %.9f", t);
  std::printf("\nreorders");
  for (double t : with_reorders) std::printf(" %.9f", t);
  double sum = 0, weighted = 0;
  const float *y = static_cast<const float *>(dst_user.get_data_handle());
  for (memory::dim i = 0; i < n * k * oh * ow; ++i) {
    sum += y[i];
    weighted += y[i] * double(i % 7 + 1);
  }
  std::printf("\nchecksum %.1f %.1f\n", sum, weighted);
  return 0;
}
