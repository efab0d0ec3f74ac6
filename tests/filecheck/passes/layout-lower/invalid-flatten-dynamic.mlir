// flatten=true needs every layout-typed memref to have a static shape: a '?' has no flat
// size. The error names the op and the type. Without flatten the same input lowers.
// RUN: not layout-opt %s -p 'layout-lower{flatten=true}' 2>&1 | filecheck %s
// RUN: layout-opt %s -p layout-lower | filecheck %s --check-prefix=NESTED

// CHECK: {{.*}}invalid-flatten-dynamic.mlir:[[# @LINE + 6]]:3: error: layout-lower: flatten=true needs static shapes, memref<?x17x5x4xf32, #layout.tag<"NCHW->nhwc">> has '?'
// NESTED-LABEL: func.func @dynamic(%n: index, %c: index, %v: f32) {
// NESTED-NEXT:    %[[M:.*]] = memref.alloc(%n) : memref<?x5x4x17xf32>
// NESTED-NEXT:    %[[Z:.*]] = arith.constant 0 : index
// NESTED-NEXT:    memref.store %v, %[[M]][%[[Z]], %[[Z]], %[[Z]], %c] : memref<?x5x4x17xf32>
func.func @dynamic(%n: index, %c: index, %v: f32) {
  %m = memref.alloc(%n) : memref<?x17x5x4xf32, #layout.tag<"NCHW->nhwc">>
  %c0 = arith.constant 0 : index
  memref.store %v, %m[%c0, %c, %c0, %c0] : memref<?x17x5x4xf32, #layout.tag<"NCHW->nhwc">>
  func.return
}
