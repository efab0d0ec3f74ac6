// A semi-affine map (xDSL, and so heterolayout, reads quasi-affine maps only; MLIR 22 reads
// semi-affine layouts too) is one line naming the op, the memref type that carries it, the
// map and what makes it semi-affine; never xDSL's parser text, never a traceback.
// RUN: layout-opt %s --split-input-file --parsing-diagnostics | filecheck %s
// RUN: not layout-opt %s 2>&1 | filecheck %s --check-prefix=FIRST
// RUN: not layout-run %s 2>&1 | filecheck %s --check-prefix=FIRST

// FIRST: layout-{{opt|run}}: error: {{.*}}semi-affine.mlir:[[# @LINE + 5]]:48: func.func @main: memref<3x3xf32, affine_map<(d0, d1)[s0] -> (d0 * s0, d1)>>: the layout affine_map<(d0, d1)[s0] -> (d0 * s0, d1)> is semi-affine (d0 * s0 multiplies two terms that are not constants); heterolayout reads quasi-affine maps only (+ and -, and *, floordiv, ceildiv and mod by constants)
// FIRST-NOT: {{.}}
// CHECK: semi-affine.mlir:[[# @LINE + 3]]:48
// CHECK: func.func @main: memref<3x3xf32, affine_map<(d0, d1)[s0] -> (d0 * s0, d1)>>: the layout affine_map<(d0, d1)[s0] -> (d0 * s0, d1)> is semi-affine (d0 * s0 multiplies two terms that are not constants)
// CHECK-NOT: Multiplication with non-constant
func.func @main(%a: memref<3x3xf32, affine_map<(d0, d1)[s0] -> (d0 * s0, d1)>>) {
  return
}

// -----
// CHECK: semi-affine.mlir:[[# @LINE + 3]]:64
// CHECK: memref.alloc (result %m): memref<3x3xf32, #layout.map<affine_map<(d0, d1) -> (d0 * d1, d1)>>>: the layout affine_map<(d0, d1) -> (d0 * d1, d1)> is semi-affine (d0 * d1 multiplies two terms that are not constants)
func.func @alloc() {
  %m = memref.alloc() : memref<3x3xf32, #layout.map<affine_map<(d0, d1) -> (d0 * d1, d1)>>>
  return
}

// -----
// CHECK: semi-affine.mlir:[[# @LINE + 2]]:21
// CHECK: the alias #tiles: the map affine_map<(d0, d1)[s0] -> (d0 mod s0, d1)> is semi-affine (a mod by a term that is not a constant)
#tiles = affine_map<(d0, d1)[s0] -> (d0 mod s0, d1)>
func.func @alias(%m: memref<4x4xf32, #tiles>) {
  return
}

// -----
// CHECK: semi-affine.mlir:[[# @LINE + 3]]:32
// CHECK: affine.apply (result %q): the map affine_map<(d0)[s0] -> (d0 floordiv s0)> is semi-affine (a floordiv by a term that is not a constant)
func.func @apply(%i: index, %n: index) -> index {
  %q = affine.apply affine_map<(d0)[s0] -> (d0 floordiv s0)>(%i)[%n]
  return %q : index
}

// -----
// CHECK: semi-affine.mlir:[[# @LINE + 3]]:22
// CHECK: affine.load (result %v): the indices [%i * %j, 0] are semi-affine (a product of two terms that are not constants)
func.func @indices(%m: memref<4x4xf32>, %i: index, %j: index) -> f32 {
  %v = affine.load %m[%i * %j, 0] : memref<4x4xf32>
  return %v : f32
}
