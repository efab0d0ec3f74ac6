// layout-lower on func.func / func.call / func.return: layout-typed parameters and results
// of functions defined in the module take their physical types, at the definition, at
// every call and at every return.
// RUN: layout-opt %s -p layout-lower -o %t
// RUN: filecheck %s --input-file %t
// RUN: filecheck %s --input-file %t --check-prefix=NONE
// NONE-NOT: {{#layout|layout\.}}

// CHECK-LABEL: func.func private @identity(%m: memref<2x3x5x4x8xf32>) -> memref<2x3x5x4x8xf32> {
// CHECK-NEXT:    func.return %m : memref<2x3x5x4x8xf32>
func.func private @identity(%m: memref<2x17x5x4xf32, #layout.tag<"NCHW->nChw8c">>) -> memref<2x17x5x4xf32, #layout.tag<"NCHW->nChw8c">> {
  func.return %m : memref<2x17x5x4xf32, #layout.tag<"NCHW->nChw8c">>
}

// The call result is read through the layout: logical (0, 9, 0, 0) is physical (0, 1, 0, 0, 1).
// CHECK-LABEL: func.func @caller(%m: memref<2x3x5x4x8xf32>) -> f32 {
// CHECK-NEXT:    %[[C1:.*]] = arith.constant 1 : index
// CHECK-NEXT:    %[[R:.*]] = func.call @identity(%m) : (memref<2x3x5x4x8xf32>) -> memref<2x3x5x4x8xf32>
// CHECK-DAG:     %[[C0:.*]] = arith.constant 0 : index
// CHECK:         %[[X:.*]] = memref.load %[[R]][%[[C0]], %[[C1]], %[[C0]], %[[C0]], %[[C1]]] : memref<2x3x5x4x8xf32>
// CHECK-NEXT:    func.return %[[X]] : f32
func.func @caller(%m: memref<2x17x5x4xf32, #layout.tag<"NCHW->nChw8c">>) -> f32 {
  %r = func.call @identity(%m) : (memref<2x17x5x4xf32, #layout.tag<"NCHW->nChw8c">>) -> memref<2x17x5x4xf32, #layout.tag<"NCHW->nChw8c">>
  %c0 = arith.constant 0 : index
  %c9 = arith.constant 9 : index
  %x = memref.load %r[%c0, %c9, %c0, %c0] : memref<2x17x5x4xf32, #layout.tag<"NCHW->nChw8c">>
  func.return %x : f32
}

// Mixed signatures: plain memrefs and scalars are left as they are.
// CHECK-LABEL: func.func @mixed(%a: memref<4x4xf32>, %b: memref<16xf32>, %i: index) -> (memref<4x4xf32>, memref<16xf32>) {
// CHECK-NEXT:    func.return %a, %b : memref<4x4xf32>, memref<16xf32>
func.func @mixed(%a: memref<16xf32, #layout.tag<"W->W4w">>, %b: memref<16xf32>, %i: index) -> (memref<16xf32, #layout.tag<"W->W4w">>, memref<16xf32>) {
  func.return %a, %b : memref<16xf32, #layout.tag<"W->W4w">>, memref<16xf32>
}
