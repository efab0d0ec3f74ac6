// A transfer of sub-byte elements that cannot be read as their bytes (signed integers, which
// arith does not truncate) is an error naming the op: upstream would move its vector as
// packed bits, and only vector.load/store of such elements are split into lanes.
// RUN: not layout-opt %s -p layout-lower 2>&1 | filecheck %s

// CHECK: {{.*}}invalid-sub-byte-transfer.mlir:[[# @LINE + 3]]:3: error: layout-lower: vector.transfer_read of vector<4xsi4> on memref<8xsi4>: upstream MLIR moves a vector of these elements as packed bits, and only vector.load/store (affine too) of them can be split into lanes
func.func @signed(%m: memref<8xsi4>, %l: memref<4xf32, #layout.tag<"W->W">>, %i: index, %pad: si4) -> vector<4xsi4> {
  %c0 = arith.constant 0 : index
  %v = vector.transfer_read %m[%i], %pad : memref<8xsi4>, vector<4xsi4>
  func.return %v : vector<4xsi4>
}
