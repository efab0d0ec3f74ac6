// A kernel whose parameter's layout differs from the memref the host passes: an error
// naming gpu.launch_func and both types (the lowered types would not agree).
// RUN: not layout-opt %s -p layout-lower 2>&1 | filecheck %s

// CHECK: layout-lower: gpu.launch_func passes memref<16xf32, #layout.tag<"W->W4w">> to a parameter of @scale typed memref<16xf32>: the layouts must agree (give the kernel the same layout, or layout.convert before the launch)
module attributes {gpu.container_module} {
  gpu.module @kernels {
    gpu.func @scale(%a: memref<16xf32>) kernel {
      gpu.return
    }
  }
  func.func @main(%a: memref<16xf32, #layout.tag<"W->W4w">>) {
    %c1 = arith.constant 1 : index
    gpu.launch_func @kernels::@scale blocks in (%c1, %c1, %c1) threads in (%c1, %c1, %c1) args(%a : memref<16xf32, #layout.tag<"W->W4w">>)
    return
  }
}
