// A launch of a kernel that is not in the module, passing a layout-typed memref: its ABI would change.
// RUN: not layout-opt %s -p layout-lower 2>&1 | filecheck %s
// CHECK: layout-lower: gpu.launch_func passes the layout-typed memref memref<16xf32, #layout.tag<"W->W4w">> to @elsewhere::@k, which is not defined in this module; lowering would change its ABI. Convert the buffer to the kernel's type first
module attributes {gpu.container_module} {
  func.func @host(%a: memref<16xf32, #layout.tag<"W->W4w">>) {
    %c1 = arith.constant 1 : index
    gpu.launch_func @elsewhere::@k blocks in (%c1, %c1, %c1) threads in (%c1, %c1, %c1) args(%a : memref<16xf32, #layout.tag<"W->W4w">>)
    return
  }
}
