// layout.assign on a kernel parameter retypes the kernel (a private function of its module);
// every launch then converts into that layout before the kernel (and not back: the kernel
// only reads the buffer), from a plain buffer and from one assigned another layout.
// RUN: layout-opt %s -p layout-apply | filecheck %s
// RUN: layout-run %s --entry host --check | filecheck %s --check-prefix=RESULT
// RUN: layout-opt %s -p layout-lower | filecheck %s --check-prefix=LOWER
// RUN: layout-opt %s -p layout-lower | filecheck %s --check-prefix=NONE
// NONE-NOT: {{#layout|layout\.}}

// RESULT: OK: 17 elements compared

// CHECK-LABEL: gpu.func @sum(%A: memref<16xf32, #layout.tag<"W->W4w">>, %B: memref<1xf32>) kernel {
// CHECK-NOT:     layout.assign
// LOWER-LABEL: gpu.func @sum(%A: memref<4x4xf32>, %B: memref<1xf32>) kernel {

// CHECK-LABEL: func.func @host(%A: memref<16xf32>, %B: memref<1xf32>) {
// CHECK:         %[[BUF:.*]] = memref.alloc() : memref<16xf32, #layout.tag<"W->W8w">>
// CHECK:         %[[T0:.*]] = memref.alloc() : memref<16xf32, #layout.tag<"W->W4w">>
// CHECK-NEXT:    layout.convert %A to %[[T0]] : memref<16xf32> to memref<16xf32, #layout.tag<"W->W4w">>
// CHECK-NEXT:    gpu.launch_func @k::@sum {{.*}} args(%[[T0]] : memref<16xf32, #layout.tag<"W->W4w">>, %B : memref<1xf32>)
// CHECK-NEXT:    memref.dealloc %[[T0]]
// CHECK-NEXT:    %[[T1:.*]] = memref.alloc() : memref<16xf32, #layout.tag<"W->W4w">>
// CHECK-NEXT:    layout.convert %[[BUF]] to %[[T1]] : memref<16xf32, #layout.tag<"W->W8w">> to memref<16xf32, #layout.tag<"W->W4w">>
// CHECK-NEXT:    gpu.launch_func @k::@sum {{.*}} args(%[[T1]] : memref<16xf32, #layout.tag<"W->W4w">>, %B : memref<1xf32>)
// CHECK-NEXT:    memref.dealloc %[[T1]]

module attributes {gpu.container_module} {
  gpu.module @k {
    gpu.func @sum(%A: memref<16xf32>, %B: memref<1xf32>) kernel {
      layout.assign %A to #layout.tag<"W->W4w"> : memref<16xf32>
      %c0 = arith.constant 0 : index
      %x = memref.load %A[%c0] : memref<16xf32>
      memref.store %x, %B[%c0] : memref<1xf32>
      gpu.return
    }
  }
  func.func @host(%A: memref<16xf32>, %B: memref<1xf32>) {
    %c1 = arith.constant 1 : index
    %buf = memref.alloc() : memref<16xf32>
    layout.assign %buf to #layout.tag<"W->W8w"> : memref<16xf32>
    memref.copy %A, %buf : memref<16xf32> to memref<16xf32>
    gpu.launch_func @k::@sum blocks in (%c1, %c1, %c1) threads in (%c1, %c1, %c1) args(%A : memref<16xf32>, %B : memref<1xf32>)
    gpu.launch_func @k::@sum blocks in (%c1, %c1, %c1) threads in (%c1, %c1, %c1) args(%buf : memref<16xf32>, %B : memref<1xf32>)
    return
  }
}
