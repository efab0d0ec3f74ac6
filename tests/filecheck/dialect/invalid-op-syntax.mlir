// Malformed layout ops are parse errors at file:line:column.
// RUN: layout-opt %s --split-input-file --parsing-diagnostics | filecheck %s

// CHECK: invalid-op-syntax.mlir:[[# @LINE + 2]]:17
func.func @not_a_layout(%m: memref<4xf32>) {
  layout.assign %m to "NC->CN" : memref<4xf32>
  func.return
}
// CHECK: layout.assign: "NC->CN" should be of attribute subclassing `MemRefLayoutAttr`

// -----
// CHECK: invalid-op-syntax.mlir:[[# @LINE + 2]]:17
func.func @not_a_memref(%t: tensor<4xf32>) {
  layout.assign %t to #layout.tag<"C->C4c"> : tensor<4xf32>
  func.return
}
// CHECK: layout.assign: tensor<4xf32> should be of base attribute memref

// -----
// CHECK: invalid-op-syntax.mlir:[[# @LINE + 2]]:18
func.func @convert_tensor(%a: tensor<4xf32>, %b: memref<4xf32>) {
  layout.convert %a to %b : tensor<4xf32> to memref<4xf32>
  func.return
}
// CHECK: layout.convert: tensor<4xf32> should be of base attribute memref

// -----
// CHECK: invalid-op-syntax.mlir:[[# @LINE + 2]]:20
func.func @missing_to(%m: memref<4xf32>) {
  layout.assign %m #layout.tag<"C->C4c"> : memref<4xf32>
  func.return
}
// CHECK: Expected integer as SSA value tuple index

// -----
// The parser reports the missing `to` at the next token.
// CHECK: invalid-op-syntax.mlir:[[# @LINE + 3]]:3
func.func @one_type(%a: memref<4xf32>, %b: memref<4xf32>) {
  layout.convert %a to %b : memref<4xf32>
  func.return
}
// CHECK: Expected 'to'

// -----
// CHECK: invalid-op-syntax.mlir:[[# @LINE + 3]]:73
func.func @unknown_unroll_key(%lb: index, %ub: index) {
  scf.for %i = %lb to %ub step %lb {
  } {loop_annotation = #llvm.loop_annotation<unroll = #llvm.loop_unroll<unrolled = true>>}
  func.return
}
// CHECK: #llvm.loop_unroll: unknown parameter unrolled (expected one of disable, count, runtimeDisable, full, followupUnrolled, followupRemainder, followupAll)
