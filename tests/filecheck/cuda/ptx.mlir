// layout-ptx: the PTX of a program's kernels with its layouts lowered, from upstream mlir-opt 22
// (no CUDA toolkit). The nChw8c kernel indexes its 2x3x5x4x8 buffers: c >> 3 and c & 7,
// strides 480 (n), 160 (c block), 32 (h), 8 (w), then 4 bytes per f32. The gpu.launch body
// becomes the kernel @host_kernel, with its constants inside (two pointer parameters only).
// REQUIRES: mlir-opt
// RUN: layout-ptx %S/../passes/layout-lower/gpu.mlir | filecheck %s
// RUN: layout-ptx %S/../passes/layout-lower/gpu.mlir --chip sm_80 -O 2 | filecheck %s --check-prefix=SM80
// RUN: layout-ptx %S/../passes/layout-lower/gpu.mlir --output-dir %t | filecheck %s --check-prefix=FILES
// RUN: filecheck %s --input-file %t/host_kernel.ptx --check-prefix=HOST

// CHECK-LABEL: // gpu.module @kernels
// CHECK:       .target sm_90
// CHECK-LABEL: .visible .entry relu(
// CHECK-NEXT:    .param .u64 .ptr .align 1 relu_param_0,
// CHECK-NEXT:    .param .u64 .ptr .align 1 relu_param_1
// CHECK-DAG:     mov.u32 {{.*}}, %ctaid.y;
// CHECK-DAG:     shr.u64 {{.*}}, 3;
// CHECK-DAG:     and.b64 {{.*}}, 7;
// CHECK-DAG:     mul.wide.u32 {{.*}}, 480;
// CHECK-DAG:     mul.wide.u32 {{.*}}, 32;
// CHECK-DAG:     mul.wide.u32 {{.*}}, 8;
// CHECK-DAG:     mad.lo.s64 {{.*}}, 160, {{.*}};
// CHECK:         ld.global.b32
// CHECK:         max.NaN.f32
// CHECK:         st.global.b32
// CHECK-LABEL: .visible .entry tile(
// CHECK-LABEL: // gpu.module @host_kernel
// CHECK:       .visible .entry host_kernel(

// SM80: .target sm_80

// FILES: kernels.ptx: relu, tile
// FILES: host_kernel.ptx: host_kernel

// HOST:      .visible .entry host_kernel(
// HOST-NEXT:   .param .u64 .ptr .align 1 host_kernel_param_0,
// HOST-NEXT:   .param .u64 .ptr .align 1 host_kernel_param_1
// HOST-NEXT: )
// HOST:        shr.u64 {{.*}}, 3;
// HOST:        mul.wide.u32 {{.*}}, 1920;
// HOST:        mad.lo.s64 {{.*}}, 640, {{.*}};
