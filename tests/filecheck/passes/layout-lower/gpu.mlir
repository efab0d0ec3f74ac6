// gpu.func kernels and gpu.launch bodies with layout-typed memrefs are lowered like
// func.func: the kernel's signature is retyped with its block arguments, gpu.launch_func
// passes the physical buffer, accesses in kernels and launch bodies are indexed; the
// lowered module passes mlir-opt-22 --convert-gpu-to-nvvm.
// RUN: layout-opt %s -p layout-lower | filecheck %s
// REQUIRES: mlir-opt
// RUN: layout-opt %s -p layout-lower | %mlir_opt --gpu-kernel-outlining --convert-gpu-to-nvvm | filecheck %s --check-prefix=NVVM

// NVVM: llvm.func @scale(%{{.*}}: !llvm.ptr, %{{.*}}: !llvm.ptr, %{{.*}}: i64, %{{.*}}: i64, %{{.*}}: i64, %{{.*}}: i64, %{{.*}}: i64, %{{.*}}: f32) attributes {gpu.kernel, nvvm.kernel}
// NVVM: gpu.launch_func @kernels::@scale {{.*}} args(%{{.*}} : memref<4x4xf32>, %{{.*}} : f32)

// CHECK-LABEL: gpu.func @scale(%a: memref<4x4xf32>, %s: f32) kernel {
// CHECK:         %[[I:.*]] = gpu.thread_id x
// CHECK-NEXT:    %[[B:.*]] = arith.divui %[[I]], %{{.*}} : index
// CHECK-NEXT:    %[[L:.*]] = arith.remui %[[I]], %{{.*}} : index
// CHECK-NEXT:    %{{.*}} = memref.load %a[%[[B]], %[[L]]] : memref<4x4xf32>
// CHECK:         memref.store %{{.*}}, %a[%[[B]], %[[L]]] : memref<4x4xf32>
// CHECK-LABEL: func.func @main(%a: memref<4x4xf32>, %s: f32) {
// CHECK:         gpu.launch_func @kernels::@scale blocks in (%{{.*}}, %{{.*}}, %{{.*}}) threads in (%{{.*}}, %{{.*}}, %{{.*}}) args(%a : memref<4x4xf32>, %s : f32)
// CHECK-LABEL: func.func @launch(%a: memref<4x4xf32>, %s: f32) {
// CHECK:         gpu.launch blocks
// CHECK:           memref.load %a[%{{.*}}, %{{.*}}] : memref<4x4xf32>
// CHECK:           memref.store %{{.*}}, %a[%{{.*}}, %{{.*}}] : memref<4x4xf32>
// CHECK-NEXT:      gpu.terminator
module attributes {gpu.container_module} {
  gpu.module @kernels {
    gpu.func @scale(%a: memref<16xf32, #layout.tag<"W->W4w">>, %s: f32) kernel {
      %i = gpu.thread_id x
      %v = memref.load %a[%i] : memref<16xf32, #layout.tag<"W->W4w">>
      %w = arith.mulf %v, %s : f32
      memref.store %w, %a[%i] : memref<16xf32, #layout.tag<"W->W4w">>
      gpu.return
    }
  }
  func.func @main(%a: memref<16xf32, #layout.tag<"W->W4w">>, %s: f32) {
    %c1 = arith.constant 1 : index
    %c16 = arith.constant 16 : index
    gpu.launch_func @kernels::@scale blocks in (%c1, %c1, %c1) threads in (%c16, %c1, %c1) args(%a : memref<16xf32, #layout.tag<"W->W4w">>, %s : f32)
    return
  }
  func.func @launch(%a: memref<16xf32, #layout.tag<"W->W4w">>, %s: f32) {
    %c1 = arith.constant 1 : index
    %c16 = arith.constant 16 : index
    gpu.launch blocks(%bx, %by, %bz) in (%gx = %c1, %gy = %c1, %gz = %c1) threads(%tx, %ty, %tz) in (%sx = %c16, %sy = %c1, %sz = %c1) {
      %v = memref.load %a[%tx] : memref<16xf32, #layout.tag<"W->W4w">>
      %w = arith.mulf %v, %s : f32
      memref.store %w, %a[%tx] : memref<16xf32, #layout.tag<"W->W4w">>
      gpu.terminator
    }
    return
  }
}
