// An async launch whose kernel takes another layout and writes the buffer: the conversion back
// could not wait for the kernel.
// RUN: not layout-opt %s -p layout-lower 2>&1 | filecheck %s
// CHECK: layout-apply: the async gpu.launch_func passes memref<16xf32, #layout.tag<"W->W4w">> to gpu.func @kernels::@write, which takes memref<16xf32>; the conversion back could not wait for the kernel (launch it synchronously or pass the kernel's layout)
module attributes {gpu.container_module} {
  gpu.module @kernels {
    gpu.func @write(%a: memref<16xf32>, %v: f32) kernel {
      %i = gpu.thread_id x
      memref.store %v, %a[%i] : memref<16xf32>
      gpu.return
    }
  }
  func.func @host(%a: memref<16xf32, #layout.tag<"W->W4w">>, %b: memref<16xf32>, %v: f32) {
    %c1 = arith.constant 1 : index
    %t = gpu.launch_func async @kernels::@write blocks in (%c1, %c1, %c1) threads in (%c1, %c1, %c1) args(%a : memref<16xf32, #layout.tag<"W->W4w">>, %v : f32)
    gpu.launch_func @kernels::@write blocks in (%c1, %c1, %c1) threads in (%c1, %c1, %c1) args(%b : memref<16xf32>, %v : f32)
    return
  }
}

