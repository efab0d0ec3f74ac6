// Target layout attributes that are wrong on their own: each is a parse error at its
// file:line:column, naming the attribute and what is wrong.
// RUN: layout-opt %s --split-input-file --parsing-diagnostics | filecheck %s

// CHECK: invalid-attributes.mlir:[[# @LINE + 1]]:49
func.func @f(%a: memref<1x3x4x5xf32, #layout.tpu<lanes = 4, start = 4>>) {
  func.return
}
// CHECK: #layout.tpu: start lane 4 is out of range: lanes are 0 to 3 (lanes = 4)

// -----
// CHECK: invalid-attributes.mlir:[[# @LINE + 1]]:49
func.func @f(%a: memref<1x3x4x5xf32, #layout.tpu<start = 1>>) {
  func.return
}
// CHECK: #layout.tpu: needs lanes = <number of lanes (NPUs)>

// -----
// CHECK: invalid-attributes.mlir:[[# @LINE + 1]]:70
func.func @f(%a: memref<1x3x4x5xf32, #layout.tpu<lanes = 4, stride = dense>>) {
  func.return
}
// CHECK: #layout.tpu: stride = dense (expected aligned, compact or [Ns, Cs, Hs, Ws])

// -----
// CHECK: invalid-attributes.mlir:[[# @LINE + 1]]:49
func.func @f(%a: memref<1x3x4x5xf32, #layout.tpu<lanes = 4, stride = [1, 2, 3]>>) {
  func.return
}
// CHECK: #layout.tpu: stride = [1, 2, 3] needs 4 strides [Ns, Cs, Hs, Ws]

// -----
// CHECK: invalid-attributes.mlir:[[# @LINE + 1]]:48
func.func @f(%a: memref<1x3x4x5xi8, #layout.tpu<lanes = 4, mode = "8N">>) {
  func.return
}
// CHECK: #layout.tpu: mode = "8N" is not a storage mode (expected "4N", "2N" or "2IC")

// -----
// CHECK: invalid-attributes.mlir:[[# @LINE + 1]]:49
func.func @f(%a: memref<1x3x4x5xf32, #layout.tpu<lanes = 4, lmem = 1024, address = 5000>>) {
  func.return
}
// CHECK: #layout.tpu: address 5000 is outside local memory [0, 4095] (lanes = 4, lmem = 1024)

// -----
// CHECK: invalid-attributes.mlir:[[# @LINE + 1]]:49
func.func @f(%a: memref<8xf32, #layout.partition<cyclic, dims = [0], factor = 0>>) {
  func.return
}
// CHECK: #layout.partition: factor 0 is not a partition factor (HeteroCL and Allo read 0 as 'unset'); give the number of banks, or use complete

// -----
// CHECK: invalid-attributes.mlir:[[# @LINE + 1]]:50
func.func @f(%a: memref<8xf32, #layout.partition<round, dims = [0], factor = 2>>) {
  func.return
}
// CHECK: #layout.partition: expected a partition kind (cyclic, block or complete)

// -----
// CHECK: invalid-attributes.mlir:[[# @LINE + 1]]:49
func.func @f(%a: memref<8xf32, #layout.partition<cyclic, dims = [0, 0], factor = 2>>) {
  func.return
}
// CHECK: #layout.partition: dim 0 is partitioned twice

// -----
// CHECK: invalid-attributes.mlir:[[# @LINE + 1]]:49
func.func @f(%a: memref<8xf32, #layout.partition<block, dims = [0]>>) {
  func.return
}
// CHECK: #layout.partition: a block partition needs factor = <number of banks>

// -----
// CHECK: invalid-attributes.mlir:[[# @LINE + 1]]:82
func.func @f(%a: memref<8xf32, #layout.partition<cyclic, dims = [0], factor = 2, lanes = 4>>) {
  func.return
}
// CHECK: #layout.partition: unknown parameter 'lanes' (expected dims, factor, pad, pack, bit_order)
