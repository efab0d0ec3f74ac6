// A bad option is a one-line diagnostic (exit 1, no traceback, no output written).
// RUN: not layout-opt %s -p 'layout-schedule{target=x86}' -o %t 2>&1 | filecheck %s
// RUN: not test -e %t
// CHECK: layout-schedule: target=x86: expected host or one of avx512, avx2, sse, neon
// CHECK-NOT: Traceback
func.func @f(%y: memref<8xf32, #layout.tag<"N->N">>, %v: f32) {
  affine.for %i = 0 to 8 {
    affine.store %v, %y[%i] : memref<8xf32, #layout.tag<"N->N">>
  }
  func.return
}

// RUN: not layout-opt %s -p 'layout-schedule{vector_width=100}' 2>&1 | filecheck %s --check-prefix=WIDTH
// WIDTH: layout-schedule: vector_width=100 registers=0: expected a multiple of 8 bits and a register count (0: the target's)

// RUN: not layout-opt %s -p 'layout-schedule{tile=-1}' 2>&1 | filecheck %s --check-prefix=TILE
// RUN: not layout-opt %s -p 'layout-schedule{tile=0,4}' 2>&1 | filecheck %s --check-prefix=TILE-ZERO
// TILE: layout-schedule: tile=-1: expected positive sizes, or tile=0 (no register tiling)
// TILE-ZERO: layout-schedule: tile=0,4: expected positive sizes, or tile=0 (no register tiling)
