// layout-lower{convert=gpu}: a host layout.convert becomes a gpu.launch whose threads
// enumerate the destination's memory order: the innermost physical dims go to threads x, y, z
// (at most 1024 threads a block), the next to blocks; each thread rebuilds the logical index
// from its ids, and the index code folds back to them. Pad slots get the pad value in the
// same kernel; the lanes of a packed container stay in one thread (a loop), so no two threads
// write one word. A convert inside GPU code stays a loop nest of the thread that runs it.
// RUN: layout-opt %s -p 'layout-lower{convert=gpu}' | filecheck %s
// RUN: not layout-opt %s -p 'layout-lower{convert=threads}' 2>&1 | filecheck %s --check-prefix=OPTION
// OPTION: layout-lower: convert=threads: expected loops or gpu

module attributes {gpu.container_module} {
  // NCHW -> nChw32c, 2x40x3x5: threads (ci 32, w 5, h 3), blocks (channel block 2, n 2).
  // CHECK-LABEL: func.func @to_blocked(%src: memref<2x40x3x5xf32>, %dst: memref<2x2x3x5x32xf32>) {
  // CHECK:         gpu.launch blocks(%[[CB:.*]], %[[N:.*]], %{{.*}}) in (%{{.*}} = %[[C2:.*]], %{{.*}} = %[[C2]], %{{.*}} = %[[C1:.*]]) threads(%[[CI:.*]], %[[W:.*]], %[[H:.*]]) in (%{{.*}} = %[[C32:.*]], %{{.*}} = %[[C5:.*]], %{{.*}} = %[[C3:.*]]) {
  // CHECK:           %[[C:.*]] = arith.addi %{{.*}}, %[[CI]] : index
  // CHECK:           %[[IN:.*]] = arith.cmpi ult, %[[C]], %{{.*}} : index
  // CHECK:           scf.if %[[IN]] {
  // CHECK:             %[[V:.*]] = memref.load %src[%[[N]], %[[C]], %[[H]], %[[W]]] : memref<2x40x3x5xf32>
  // CHECK:             memref.store %[[V]], %dst[%[[N]], %[[CB]], %[[H]], %[[W]], %[[CI]]] : memref<2x2x3x5x32xf32>
  // CHECK:           } else {
  // CHECK:             memref.store %{{.*}}, %dst[%[[N]], %[[CB]], %[[H]], %[[W]], %[[CI]]] : memref<2x2x3x5x32xf32>
  // CHECK:           gpu.terminator
  func.func @to_blocked(%src: memref<2x40x3x5xf32>, %dst: memref<2x40x3x5xf32, #layout.tag<"NCHW->nChw32c">>) {
    layout.convert %src to %dst : memref<2x40x3x5xf32> to memref<2x40x3x5xf32, #layout.tag<"NCHW->nChw32c">>
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

  // A 2-D destination of 64x2048: 2048 does not fit a block, so the inner dim goes to
  // blocks x and the outer to blocks y, one thread per block.
  // CHECK-LABEL: func.func @wide(
  // CHECK:         gpu.launch blocks(%{{.*}}, %{{.*}}, %{{.*}}) in (%{{.*}} = %[[C2048:.*]], %{{.*}} = %[[C64:.*]], %{{.*}} = %{{.*}}) threads
  func.func @wide(%a: memref<2048x64xf32>, %b: memref<2048x64xf32, #layout.tag<"HW->WH">>) {
    layout.convert %a to %b : memref<2048x64xf32> to memref<2048x64xf32, #layout.tag<"HW->WH">>
    return
  }

  // In GPU code, a convert is the thread's own loop nest.
  // CHECK-LABEL: func.func @inside(
  // CHECK:         gpu.launch
  // CHECK-NOT:       gpu.launch
  // CHECK:           scf.for
  func.func @inside(%a: memref<16xf32>, %b: memref<16xf32, #layout.tag<"W->W4w">>) {
    %c1 = arith.constant 1 : index
    gpu.launch blocks(%bx, %by, %bz) in (%gx = %c1, %gy = %c1, %gz = %c1) threads(%tx, %ty, %tz) in (%sx = %c1, %sy = %c1, %sz = %c1) {
      layout.convert %a to %b : memref<16xf32> to memref<16xf32, #layout.tag<"W->W4w">>
      gpu.terminator
    }
    return
  }
}
