// A layout carried through memref.cast onto a shape with '?' keeps its map, but a physical
// extent the map bounds by a modulus (`d1 mod 6`: 2 slots on a dim of 2, 6 on a `?` dim)
// changes with it, so the lowered cast was between two physical types that differ
// (memref<2x5x?x9x1xi4> to memref<6x?x?x9x?xi4>) and the engines refused the lowered
// program (found by the fuzzer, seed 45206). The retyped cast is refused, pointing at it;
// the same cast with the tiled dim kept static is applied.
// RUN: not layout-opt %s -p layout-apply 2>&1 | filecheck %s
// RUN: not layout-opt %s -p layout-lower 2>&1 | filecheck %s
// RUN: sed 's/9x?x?x?xi4/9x2x?x?xi4/g' %s | layout-opt -p layout-lower | filecheck %s --check-prefix=STATIC

// CHECK: {{.*}}invalid-cast-bound-extent.mlir:[[# @LINE + 6]]:3: error: memref.cast from memref<9x2x5x?xi4, #layout.map<{{.*}}>> to memref<9x?x?x?xi4, #layout.map<{{.*}}>> changes physical extent 0 of #layout.map<affine_map<(d0, d1, d2, d3) -> (d1 mod 6, d2, d3, d0, d1 floordiv 6)>> from 2 to 6
// CHECK-NOT: builtin.module

// STATIC-LABEL: func.func @kernel
// STATIC: memref.cast %{{.*}} : memref<2x5x?x9x1xi4> to memref<2x?x?x9x1xi4>
func.func @kernel(%A: memref<9x?x?x?xi4>, %B: memref<9x2x5x?xi4>) {
  %cast = memref.cast %B : memref<9x2x5x?xi4> to memref<9x?x?x?xi4>
  memref.copy %cast, %A : memref<9x?x?x?xi4> to memref<9x?x?x?xi4>
  layout.assign %B to #layout.map<affine_map<(d0, d1, d2, d3) -> (d1 mod 6, d2, d3, d0, d1 floordiv 6)>> : memref<9x2x5x?xi4>
  func.return
}
