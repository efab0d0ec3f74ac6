// Bad hints: the verifier names the op and what is wrong.
// RUN: layout-opt %s --split-input-file --verify-diagnostics | filecheck %s

func.func @rank(%y: memref<4x8xf32>) {
  // CHECK: layout.schedule: tile has 1 sizes but memref<4x8xf32> has rank 2
  layout.schedule %y {tile = array<i64: 4>} : memref<4x8xf32>
  func.return
}

// -----

func.func @zero(%y: memref<4x8xf32>) {
  // CHECK: layout.schedule: tile sizes must be positive, got [0, 8]
  layout.schedule %y {tile = array<i64: 0, 8>} : memref<4x8xf32>
  func.return
}

// -----

func.func @width(%y: memref<4x8xf32>) {
  // CHECK: layout.schedule: vector_width 100 must be a positive multiple of 8 bits
  layout.schedule %y {vector_width = 100} : memref<4x8xf32>
  func.return
}
