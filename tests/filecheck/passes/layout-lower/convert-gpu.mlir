// layout-lower{convert=gpu}: a host layout.convert becomes a GPU kernel.
// - Source and destination contiguous along the same logical dim: a gpu.launch whose
//   threads enumerate the destination's memory order (the innermost physical dims go to
//   threads x, y, z, at most 1024 a block, the next to blocks); each thread rebuilds the
//   logical index from its ids, and the index code folds back to them. Pad slots get the pad
//   value in the same kernel; the lanes of a packed container stay in one thread (a loop).
// - Contiguous along different dims: a gpu.func with a 32x33 workgroup tile: 32x8 threads
//   read a 32x32 tile with thread x along the source's contiguous dim, meet at a barrier,
//   and write it with thread x along the destination's (pad slots included).
// - Inside GPU code a convert stays a loop nest of the thread that runs it.
// RUN: layout-opt %s -p 'layout-lower{convert=gpu}' | filecheck %s
// RUN: not layout-opt %s -p 'layout-lower{convert=threads}' 2>&1 | filecheck %s --check-prefix=OPTION
// OPTION: layout-lower: convert=threads: expected loops or gpu

module attributes {gpu.container_module} {
  // nChw8c -> nChw32c, 2x40x3x5 (both contiguous in C): threads (ci 32, w 5, h 3), blocks
  // (channel block 2, n 2); channels 40..63 are pad.
  // CHECK-LABEL: func.func @rechunk(%src: memref<2x5x3x5x8xf32>, %dst: memref<2x2x3x5x32xf32>) {
  // CHECK:         gpu.launch blocks(%[[CB:.*]], %[[N:.*]], %{{.*}}) in (%{{.*}} = %[[C2:.*]], %{{.*}} = %[[C2]], %{{.*}} = %[[C1:.*]]) threads(%[[CI:.*]], %[[W:.*]], %[[H:.*]]) in (%{{.*}} = %[[C32:.*]], %{{.*}} = %[[C5:.*]], %{{.*}} = %[[C3:.*]]) {
  // CHECK:           %[[C:.*]] = arith.addi %{{.*}}, %[[CI]] : index
  // CHECK:           %[[IN:.*]] = arith.cmpi ult, %[[C]], %{{.*}} : index
  // CHECK:           scf.if %[[IN]] {
  // CHECK:             %[[V:.*]] = memref.load %src[%[[N]], %{{.*}}, %[[H]], %[[W]], %{{.*}}] : memref<2x5x3x5x8xf32>
  // CHECK:             memref.store %[[V]], %dst[%[[N]], %[[CB]], %[[H]], %[[W]], %[[CI]]] : memref<2x2x3x5x32xf32>
  // CHECK:           } else {
  // CHECK:             memref.store %{{.*}}, %dst[%[[N]], %[[CB]], %[[H]], %[[W]], %[[CI]]] : memref<2x2x3x5x32xf32>
  // CHECK:           gpu.terminator
  func.func @rechunk(%src: memref<2x40x3x5xf32, #layout.tag<"NCHW->nChw8c">>, %dst: memref<2x40x3x5xf32, #layout.tag<"NCHW->nChw32c">>) {
    layout.convert %src to %dst : memref<2x40x3x5xf32, #layout.tag<"NCHW->nChw8c">> to memref<2x40x3x5xf32, #layout.tag<"NCHW->nChw32c">>
    return
  }

  // int8 NCHW -> NCHW4 in i32 words: one thread per word, its 4 lanes in a loop.
  // CHECK-LABEL: func.func @to_words(%x: memref<1x8x6x6xi8>, %p: memref<1x2x6x6xi32>) {
  // CHECK:         gpu.launch blocks({{.*}}) in ({{.*}}) threads(%[[TW:.*]], %[[TH:.*]], %[[TC:.*]]) in (%{{.*}} = %[[C6:.*]], %{{.*}} = %[[C6]], %{{.*}} = %{{.*}}) {
  // CHECK:           scf.for %[[LANE:.*]] = %{{.*}} to %{{.*}} step %{{.*}} {
  // CHECK:             memref.load %p[%{{.*}}, %[[TC]], %[[TH]], %[[TW]]] : memref<1x2x6x6xi32>
  // CHECK:             memref.store %{{.*}}, %p[%{{.*}}, %[[TC]], %[[TH]], %[[TW]]] : memref<1x2x6x6xi32>
  func.func @to_words(%x: memref<1x8x6x6xi8>, %p: memref<1x8x6x6xi8, #layout.tag<"NCHW->NCHW4c", pack = i32>>) {
    layout.convert %x to %p : memref<1x8x6x6xi8> to memref<1x8x6x6xi8, #layout.tag<"NCHW->NCHW4c", pack = i32>>
    return
  }

  // NCHW -> nChw16c (pad -1), 2x17x5x12: the source is contiguous in W, the destination in C.
  // Grid (C tiles 1, W tiles 1, n*h 10), blocks of 32x8 threads.
  // CHECK-LABEL: func.func @transpose(%a: memref<2x17x5x12xf32>, %b: memref<2x2x5x12x16xf32>) {
  // CHECK:         gpu.launch_func @layout_convert_0::@layout_convert_0 blocks in (%[[G1:.*]], %[[G1]], %[[G10:.*]]) threads in (%[[T32:.*]], %[[T8:.*]], %[[G1]]) args(%a : memref<2x17x5x12xf32>, %b : memref<2x2x5x12x16xf32>)
  func.func @transpose(%a: memref<2x17x5x12xf32>, %b: memref<2x17x5x12xf32, #layout.tag<"NCHW->nChw16c", pad = -1.0>>) {
    layout.convert %a to %b : memref<2x17x5x12xf32> to memref<2x17x5x12xf32, #layout.tag<"NCHW->nChw16c", pad = -1.0>>
    return
  }

  // In GPU code, a convert is the thread's own loop nest.
  // CHECK-LABEL: func.func @inside(
  // CHECK:         gpu.launch
  // CHECK-NOT:       gpu.launch
  // CHECK:           scf.for
  // The kernels follow the functions.
  // CHECK-LABEL: gpu.module @layout_convert_0 {
  // CHECK-NEXT:    gpu.func @layout_convert_0(%{{.*}}: memref<2x17x5x12xf32>, %{{.*}}: memref<2x2x5x12x16xf32>) workgroup(%[[TILE:.*]]: memref<32x33xf32, #gpu.address_space<workgroup>>) kernel attributes {gpu.known_block_size = array<i32: 32, 8, 1>, gpu.known_grid_size = array<i32: 1, 1, 10>} {
  // Reading: thread x along W (the source's contiguous dim) into tile[row, tx].
  // CHECK:         %[[TX:.*]] = gpu.thread_id x
  // CHECK:         %[[COL:.*]] = arith.addi %{{.*}}, %[[TX]] : index
  // CHECK:         memref.load %{{.*}}[%{{.*}}, %{{.*}}, %{{.*}}, %[[COL]]] : memref<2x17x5x12xf32>
  // CHECK:         memref.store %{{.*}}, %[[TILE]][%{{.*}}, %[[TX]]] : memref<32x33xf32, #gpu.address_space<workgroup>>
  // CHECK:         gpu.barrier
  // Writing: thread x along C (the destination's): channel block tx / 16, lane tx % 16.
  // CHECK:         memref.load %[[TILE]][%[[TX]], %{{.*}}] : memref<32x33xf32, #gpu.address_space<workgroup>>
  // CHECK:         %[[LANE:.*]] = arith.remui %[[TX]], %{{.*}} : index
  // CHECK:         memref.store %{{.*}}, %{{.*}}[%{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}, %[[LANE]]] : memref<2x2x5x12x16xf32>
  // CHECK:       } else {
  // CHECK-NEXT:    %[[PAD:.*]] = arith.constant -1.000000e+00 : f32
  // CHECK:         memref.store %[[PAD]], %{{.*}}[%{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}] : memref<2x2x5x12x16xf32>
  // CHECK:         gpu.return
  func.func @inside(%a: memref<16xf32>, %b: memref<16xf32, #layout.tag<"W->W4w">>) {
    %c1 = arith.constant 1 : index
    gpu.launch blocks(%bx, %by, %bz) in (%gx = %c1, %gy = %c1, %gz = %c1) threads(%tx, %ty, %tz) in (%sx = %c1, %sy = %c1, %sz = %c1) {
      layout.convert %a to %b : memref<16xf32> to memref<16xf32, #layout.tag<"W->W4w">>
      gpu.terminator
    }
    return
  }
}
