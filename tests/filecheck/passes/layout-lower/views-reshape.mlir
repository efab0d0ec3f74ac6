// collapse_shape, expand_shape, transpose and reinterpret_cast of a layout-typed memref
// index its root's physical buffer through the composed layout (reshapes count in the
// root's logical row-major order, as on the layout-free program).
// RUN: layout-opt %s -p layout-lower | filecheck %s
// RUN: layout-opt %s -p layout-lower | mlir-opt-22 | filecheck %s --check-prefix=UPSTREAM

// UPSTREAM: func.func @collapse
// Collapsed index k of (n, c) is n = k / 8, c = k mod 8; "NCW->CNW4c" puts c first.
// CHECK-LABEL: func.func @collapse(%a: memref<2x2x4x4xf32>, %k: index, %w: index) -> f32 {
// CHECK-NOT:   memref.collapse_shape
// CHECK:       %[[K4:.*]] = arith.divui %k, %[[FOUR:.*]] : index
// CHECK-NEXT:  %[[CB:.*]] = arith.remui %[[K4]], %{{.*}} : index
// CHECK-NEXT:  %[[N:.*]] = arith.divui %k, %{{.*}} : index
// CHECK-NEXT:  %[[CL:.*]] = arith.remui %k, %[[FOUR]] : index
// CHECK-NEXT:  %v = memref.load %a[%[[CB]], %[[N]], %w, %[[CL]]] : memref<2x2x4x4xf32>
func.func @collapse(%a: memref<2x8x4xf32, #layout.tag<"NCW->CNW4c">>, %k: index, %w: index) -> f32 {
  %col = memref.collapse_shape %a [[0, 1], [2]] : memref<2x8x4xf32, #layout.tag<"NCW->CNW4c">> into memref<16x4xf32>
  %v = memref.load %col[%k, %w] : memref<16x4xf32>
  func.return %v : f32
}

// Expanded (n, b, l, w) is channel 4b + l: block b, lane l.
// CHECK-LABEL: func.func @expand(%a: memref<2x2x4x4xf32>, %n: index, %b: index, %l: index, %w: index) -> f32 {
// CHECK-NEXT:  %v = memref.load %a[%b, %n, %w, %l] : memref<2x2x4x4xf32>
func.func @expand(%a: memref<2x8x4xf32, #layout.tag<"NCW->CNW4c">>, %n: index, %b: index, %l: index, %w: index) -> f32 {
  %ex = memref.expand_shape %a [[0], [1, 2], [3]] output_shape [2, 2, 4, 4] : memref<2x8x4xf32, #layout.tag<"NCW->CNW4c">> into memref<2x2x4x4xf32>
  %v = memref.load %ex[%n, %b, %l, %w] : memref<2x2x4x4xf32>
  func.return %v : f32
}

// CHECK-LABEL: func.func @transpose(%a: memref<2x2x4x4xf32>, %w: index, %n: index) -> f32 {
// Channel 5 is block 1, lane 1.
// CHECK-NEXT:  %[[ONE:.*]] = arith.constant 1 : index
// CHECK-NEXT:  %v = memref.load %a[%[[ONE]], %n, %w, %[[ONE]]] : memref<2x2x4x4xf32>
func.func @transpose(%a: memref<2x8x4xf32, #layout.tag<"NCW->CNW4c">>, %w: index, %n: index) -> f32 {
  %c5 = arith.constant 5 : index
  %tr = memref.transpose %a (n, c, w) -> (w, n, c) : memref<2x8x4xf32, #layout.tag<"NCW->CNW4c">> to memref<4x2x8xf32, strided<[1, 32, 4]>>
  %v = memref.load %tr[%w, %n, %c5] : memref<4x2x8xf32, strided<[1, 32, 4]>>
  func.return %v : f32
}

// Element 3 + 5i in row-major order over 2x8x4 is (n, c, w) = ((3+5i)/32, (3+5i)/4 mod 8, (3+5i) mod 4).
// CHECK-LABEL: func.func @reinterpret(%a: memref<2x2x4x4xf32>, %i: index) -> f32 {
// CHECK:       %[[I5:.*]] = arith.muli %i, %{{.*}} : index
// CHECK-NEXT:  %[[L:.*]] = arith.addi %[[I5]], %[[THREE:.*]] : index
// CHECK-NEXT:  %[[L16:.*]] = arith.divui %[[L]], %{{.*}} : index
// CHECK-NEXT:  %[[CB:.*]] = arith.remui %[[L16]], %{{.*}} : index
// CHECK-NEXT:  %[[N:.*]] = arith.divui %[[L]], %{{.*}} : index
// CHECK-NEXT:  %[[I3:.*]] = arith.addi %i, %[[THREE]] : index
// CHECK-NEXT:  %[[W:.*]] = arith.remui %[[I3]], %[[FOUR:.*]] : index
// CHECK-NEXT:  %[[L4:.*]] = arith.divui %[[L]], %[[FOUR]] : index
// CHECK-NEXT:  %[[CL:.*]] = arith.remui %[[L4]], %[[FOUR]] : index
// CHECK-NEXT:  %v = memref.load %a[%[[CB]], %[[N]], %[[W]], %[[CL]]] : memref<2x2x4x4xf32>
func.func @reinterpret(%a: memref<2x8x4xf32, #layout.tag<"NCW->CNW4c">>, %i: index) -> f32 {
  %re = memref.reinterpret_cast %a to offset: [3], sizes: [8], strides: [5] : memref<2x8x4xf32, #layout.tag<"NCW->CNW4c">> to memref<8xf32, strided<[5], offset: 3>>
  %v = memref.load %re[%i] : memref<8xf32, strided<[5], offset: 3>>
  func.return %v : f32
}

// Collapsing a '?' dim with static inner extents gives a '?' dim: delinearizing it divides by
// the static inner extent 4, and its size is the root's run-time extent times 4.
// CHECK-LABEL: func.func @collapse_dynamic(%a: memref<?x4x2x8xf32>, %i: index, %c: index) -> (f32, index) {
// CHECK:       %[[N:.*]] = memref.dim %a, %{{.*}} : memref<?x4x2x8xf32>
// CHECK:       %[[SIZE:.*]] = arith.muli %[[N]], %{{.*}} : index
// CHECK:       %[[ROW:.*]] = arith.divui %i, %{{.*}} : index
// CHECK-NEXT:  %[[H:.*]] = arith.remui %i, %{{.*}} : index
// CHECK:       %v = memref.load %a[%[[ROW]], %[[H]], %{{.*}}, %{{.*}}] : memref<?x4x2x8xf32>
// CHECK-NEXT:  func.return %v, %[[SIZE]] : f32, index
func.func @collapse_dynamic(%a: memref<?x4x16xf32, #layout.tag<"NHC->NHC8c">>, %i: index, %c: index) -> (f32, index) {
  %s = memref.collapse_shape %a [[0, 1], [2]] : memref<?x4x16xf32, #layout.tag<"NHC->NHC8c">> into memref<?x16xf32>
  %c0 = arith.constant 0 : index
  %n = memref.dim %s, %c0 : memref<?x16xf32>
  %v = memref.load %s[%i, %c] : memref<?x16xf32>
  func.return %v, %n : f32, index
}
