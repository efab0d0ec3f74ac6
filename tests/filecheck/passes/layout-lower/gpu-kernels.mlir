// layout-lower on GPU code: a gpu.func kernel is a function (its function_type, block
// arguments and accesses take the physical types), gpu.launch_func is a call, and a
// gpu.launch body indexes the host's buffers like any nested region.
// RUN: layout-opt %s -p layout-lower -o %t
// RUN: filecheck %s --input-file %t
// RUN: filecheck %s --input-file %t --check-prefix=NONE
// NONE-NOT: {{#layout|layout\.}}

module attributes {gpu.container_module} {
  gpu.module @kernels {
    // Logical (n, c, h, w) of nChw8c is physical (n, c floordiv 8, h, w, c mod 8); the
    // padded channels (17 → 24) are in the type, the index code is in the kernel.
    // CHECK-LABEL: gpu.func @relu(%x: memref<2x3x5x4x8xf32>, %y: memref<2x3x5x4x8xf32>) kernel {
    // CHECK-DAG:     %[[C8:.*]] = arith.constant 8 : index
    // CHECK-DAG:     %[[N:.*]] = gpu.block_id x
    // CHECK-DAG:     %[[C:.*]] = gpu.block_id y
    // CHECK-DAG:     %[[H:.*]] = gpu.thread_id x
    // CHECK-DAG:     %[[W:.*]] = gpu.thread_id y
    // CHECK:         %[[CB:.*]] = arith.divui %[[C]], %[[C8]] : index
    // CHECK:         %[[CI:.*]] = arith.remui %[[C]], %[[C8]] : index
    // CHECK:         %[[V:.*]] = memref.load %x[%[[N]], %[[CB]], %[[H]], %[[W]], %[[CI]]] : memref<2x3x5x4x8xf32>
    // CHECK:         memref.store %{{.*}}, %y[%[[N]], %[[CB]], %[[H]], %[[W]], %[[CI]]] : memref<2x3x5x4x8xf32>
    // CHECK-NEXT:    gpu.return
    gpu.func @relu(%x: memref<2x17x5x4xf32, #layout.tag<"NCHW->nChw8c">>, %y: memref<2x17x5x4xf32, #layout.tag<"NCHW->nChw8c">>) kernel {
      %n = gpu.block_id x
      %c = gpu.block_id y
      %h = gpu.thread_id x
      %w = gpu.thread_id y
      %v = memref.load %x[%n, %c, %h, %w] : memref<2x17x5x4xf32, #layout.tag<"NCHW->nChw8c">>
      %zero = arith.constant 0.0 : f32
      %r = arith.maximumf %v, %zero : f32
      memref.store %r, %y[%n, %c, %h, %w] : memref<2x17x5x4xf32, #layout.tag<"NCHW->nChw8c">>
      gpu.return
    }

    // A device function returning a layout-typed memref, and a workgroup attribution with a
    // layout: both take physical types.
    // CHECK-LABEL: gpu.func @pick(%m: memref<4x4xf32>) -> (memref<4x4xf32>) {
    // CHECK-NEXT:    gpu.return %m : memref<4x4xf32>
    gpu.func @pick(%m: memref<16xf32, #layout.tag<"W->W4w">>) -> memref<16xf32, #layout.tag<"W->W4w">> {
      gpu.return %m : memref<16xf32, #layout.tag<"W->W4w">>
    }
    // CHECK-LABEL: gpu.func @tile(%a: memref<8x8xf32>) workgroup(%t: memref<8x8xf32, #gpu.address_space<workgroup>>) kernel {
    // CHECK:         memref.store %v, %t[%j, %i] : memref<8x8xf32, #gpu.address_space<workgroup>>
    gpu.func @tile(%a: memref<8x8xf32>) workgroup(%t: memref<8x8xf32, #layout.tag<"HW->WH">, #gpu.address_space<workgroup>>) kernel {
      %i = gpu.thread_id x
      %j = gpu.thread_id y
      %v = memref.load %a[%i, %j] : memref<8x8xf32>
      memref.store %v, %t[%i, %j] : memref<8x8xf32, #layout.tag<"HW->WH">, #gpu.address_space<workgroup>>
      gpu.return
    }
  }

  // The launch passes the physical buffers; the gpu.launch body reads the host's buffer
  // through its layout.
  // CHECK-LABEL: func.func @host(%x: memref<2x3x5x4x8xf32>, %y: memref<2x3x5x4x8xf32>, %out: memref<2x17xf32>) {
  // CHECK:         gpu.launch_func @kernels::@relu blocks in (%{{.*}}, %{{.*}}, %{{.*}}) threads in (%{{.*}}, %{{.*}}, %{{.*}}) args(%x : memref<2x3x5x4x8xf32>, %y : memref<2x3x5x4x8xf32>)
  // The launch body keeps its own constants (it becomes a kernel: nothing to pass in).
  // CHECK:         gpu.launch blocks(%[[BX:.*]], %{{.*}}, %{{.*}}) in ({{.*}}) threads(%[[TX:.*]], %{{.*}}, %{{.*}}) in ({{.*}}) {
  // CHECK-NEXT:      %[[C8L:.*]] = arith.constant 8 : index
  // CHECK:           %[[CB:.*]] = arith.divui %[[TX]], %[[C8L]] : index
  // CHECK:           %[[CI:.*]] = arith.remui %[[TX]], %[[C8L]] : index
  // CHECK:           memref.load %y[%[[BX]], %[[CB]], %{{.*}}, %{{.*}}, %[[CI]]] : memref<2x3x5x4x8xf32>
  // CHECK:           gpu.terminator
  func.func @host(%x: memref<2x17x5x4xf32, #layout.tag<"NCHW->nChw8c">>, %y: memref<2x17x5x4xf32, #layout.tag<"NCHW->nChw8c">>, %out: memref<2x17xf32>) {
    %c1 = arith.constant 1 : index
    %c2 = arith.constant 2 : index
    %c4 = arith.constant 4 : index
    %c5 = arith.constant 5 : index
    %c17 = arith.constant 17 : index
    gpu.launch_func @kernels::@relu blocks in (%c2, %c17, %c1) threads in (%c5, %c4, %c1) args(%x : memref<2x17x5x4xf32, #layout.tag<"NCHW->nChw8c">>, %y : memref<2x17x5x4xf32, #layout.tag<"NCHW->nChw8c">>)
    gpu.launch blocks(%bx, %by, %bz) in (%gx = %c2, %gy = %c1, %gz = %c1) threads(%tx, %ty, %tz) in (%sx = %c17, %sy = %c1, %sz = %c1) {
      %c0 = arith.constant 0 : index
      %v = memref.load %y[%bx, %tx, %c0, %c0] : memref<2x17x5x4xf32, #layout.tag<"NCHW->nChw8c">>
      memref.store %v, %out[%bx, %tx] : memref<2x17xf32>
      gpu.terminator
    }
    return
  }
}
