// layout-apply and layout-lower at host/kernel boundaries. A gpu.launch_func is a call and
// a kernel a private function of its module: when every launch passes one new type, the
// kernel's parameter is retyped; when launches disagree (or a kernel takes another layout
// than the host's buffer), the launch gets conversions around it, the one after it only
// when the kernel may write the buffer. layout-lower runs layout-apply by itself when a
// launch disagrees with its kernel.
// RUN: layout-opt %s -p layout-apply | filecheck %s
// RUN: layout-opt %s -p layout-lower | filecheck %s --check-prefix=LOWER

module attributes {gpu.container_module} {
  gpu.module @kernels {
    // Launched with a W4w buffer and with a plain one: unchanged.
    // CHECK-LABEL: gpu.func @scale(%A: memref<16xf32>, %s: f32) kernel {
    // LOWER-LABEL: gpu.func @scale(%A: memref<16xf32>, %s: f32) kernel {
    gpu.func @scale(%A: memref<16xf32>, %s: f32) kernel {
      %i = gpu.thread_id x
      %x = memref.load %A[%i] : memref<16xf32>
      %y = arith.mulf %x, %s : f32
      memref.store %y, %A[%i] : memref<16xf32>
      gpu.return
    }
    // Every launch passes a W4w buffer: retyped (no conversion).
    // CHECK-LABEL: gpu.func @sum(%A: memref<16xf32, #layout.tag<"W->W4w">>, %B: memref<1xf32>) kernel {
    // LOWER-LABEL: gpu.func @sum(%A: memref<4x4xf32>, %B: memref<1xf32>) kernel {
    gpu.func @sum(%A: memref<16xf32>, %B: memref<1xf32>) kernel {
      %c0 = arith.constant 0 : index
      %c1 = arith.constant 1 : index
      %c16 = arith.constant 16 : index
      %z = arith.constant 0.0 : f32
      %r = scf.for %i = %c0 to %c16 step %c1 iter_args(%acc = %z) -> (f32) {
        %x = memref.load %A[%i] : memref<16xf32>
        %n = arith.addf %acc, %x : f32
        scf.yield %n : f32
      }
      memref.store %r, %B[%c0] : memref<1xf32>
      gpu.return
    }
    // The kernel wants its input in W8w; it only reads it.
    // CHECK-LABEL: gpu.func @first(%A: memref<16xf32, #layout.tag<"W->W8w">>, %B: memref<1xf32>) kernel {
    gpu.func @first(%A: memref<16xf32, #layout.tag<"W->W8w">>, %B: memref<1xf32>) kernel {
      %c0 = arith.constant 0 : index
      %x = memref.load %A[%c0] : memref<16xf32, #layout.tag<"W->W8w">>
      memref.store %x, %B[%c0] : memref<1xf32>
      gpu.return
    }
  }

  // CHECK-LABEL: func.func @host(%A: memref<16xf32, #layout.tag<"W->W4w">>, %P: memref<16xf32>, %B: memref<1xf32>, %s: f32) {
  // CHECK:         %[[T:.*]] = memref.alloc() : memref<16xf32>
  // CHECK-NEXT:    layout.convert %A to %[[T]] : memref<16xf32, #layout.tag<"W->W4w">> to memref<16xf32>
  // CHECK-NEXT:    gpu.launch_func @kernels::@scale blocks in (%c1, %c1, %c1) threads in (%c16, %c1, %c1) args(%[[T]] : memref<16xf32>, %s : f32)
  // CHECK-NEXT:    layout.convert %[[T]] to %A : memref<16xf32> to memref<16xf32, #layout.tag<"W->W4w">>
  // CHECK-NEXT:    memref.dealloc %[[T]] : memref<16xf32>
  // CHECK-NEXT:    gpu.launch_func @kernels::@scale blocks in (%c1, %c1, %c1) threads in (%c16, %c1, %c1) args(%P : memref<16xf32>, %s : f32)
  // CHECK-NEXT:    gpu.launch_func @kernels::@sum blocks in (%c1, %c1, %c1) threads in (%c1, %c1, %c1) args(%A : memref<16xf32, #layout.tag<"W->W4w">>, %B : memref<1xf32>)
  // CHECK-NEXT:    %[[U:.*]] = memref.alloc() : memref<16xf32, #layout.tag<"W->W8w">>
  // CHECK-NEXT:    layout.convert %A to %[[U]] : memref<16xf32, #layout.tag<"W->W4w">> to memref<16xf32, #layout.tag<"W->W8w">>
  // CHECK-NEXT:    gpu.launch_func @kernels::@first blocks in (%c1, %c1, %c1) threads in (%c1, %c1, %c1) args(%[[U]] : memref<16xf32, #layout.tag<"W->W8w">>, %B : memref<1xf32>)
  // CHECK-NEXT:    memref.dealloc %[[U]] : memref<16xf32, #layout.tag<"W->W8w">>
  // LOWER-LABEL: func.func @host(%A: memref<4x4xf32>, %P: memref<16xf32>, %B: memref<1xf32>, %s: f32) {
  // LOWER:         gpu.launch_func @kernels::@scale blocks in ({{.*}}) threads in ({{.*}}) args(%{{.*}} : memref<16xf32>, %s : f32)
  // LOWER:         gpu.launch_func @kernels::@sum blocks in ({{.*}}) threads in ({{.*}}) args(%A : memref<4x4xf32>, %B : memref<1xf32>)
  // LOWER:         gpu.launch_func @kernels::@first blocks in ({{.*}}) threads in ({{.*}}) args(%{{.*}} : memref<2x8xf32>, %B : memref<1xf32>)
  func.func @host(%A: memref<16xf32, #layout.tag<"W->W4w">>, %P: memref<16xf32>, %B: memref<1xf32>, %s: f32) {
    %c1 = arith.constant 1 : index
    %c16 = arith.constant 16 : index
    gpu.launch_func @kernels::@scale blocks in (%c1, %c1, %c1) threads in (%c16, %c1, %c1) args(%A : memref<16xf32, #layout.tag<"W->W4w">>, %s : f32)
    gpu.launch_func @kernels::@scale blocks in (%c1, %c1, %c1) threads in (%c16, %c1, %c1) args(%P : memref<16xf32>, %s : f32)
    gpu.launch_func @kernels::@sum blocks in (%c1, %c1, %c1) threads in (%c1, %c1, %c1) args(%A : memref<16xf32, #layout.tag<"W->W4w">>, %B : memref<1xf32>)
    gpu.launch_func @kernels::@first blocks in (%c1, %c1, %c1) threads in (%c1, %c1, %c1) args(%A : memref<16xf32, #layout.tag<"W->W4w">>, %B : memref<1xf32>)
    return
  }
}
