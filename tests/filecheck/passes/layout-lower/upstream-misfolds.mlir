// MLIR 22's affine canonicalization bounds `i mod 6` below by `lb(i) mod 6` even where i
// crosses a multiple of 6, so over `affine.for %i = 5 to 12 step 3` it folds
// `(i mod 6) floordiv 4` to 1 (i = 8 gives 0) and rewrites `(i mod 6) mod 4` as
// `(i mod 6) - 4` (fuzz seed 61370). layout-lower (and layout-schedule) never hand such a
// map on: the division over a mod is an arith op on the affine.apply of the mod, in the
// index code they emit and in the program's own maps. Upstream's canonicalization then
// keeps the division (UPSTREAM), where it folded the map before.
// RUN: layout-opt %s -p 'layout-lower{index=affine}' | filecheck %s
// RUN: layout-opt %s -p 'layout-lower{index=affine}' | %mlir_opt --canonicalize | filecheck %s --check-prefix=UPSTREAM
// REQUIRES: mlir-opt

// CHECK-LABEL: func.func @own_map
// CHECK:       %[[M:.*]] = affine.apply affine_map<(d0) -> ((d0 mod 6))> (%i)
// CHECK:       %[[Q:.*]] = arith.divui %[[M]], %{{.*}} : index
// CHECK-NEXT:  %v = memref.load %m[%[[Q]]] : memref<16xf64>
// UPSTREAM-LABEL: func.func @own_map
// UPSTREAM:       arith.divui
// UPSTREAM-NOT:   affine.load
func.func @own_map(%m: memref<16xf64>) {
  affine.for %i = 5 to 12 step 3 {
    %v = affine.load %m[(%i mod 6) floordiv 4] : memref<16xf64>
    vector.print %v : f64
  }
  func.return
}

// The layout's `S floordiv 4` and `S mod 4` over the program's `arith.remsi %i, 6`.
// CHECK-LABEL: func.func @layout_index
// CHECK:       %[[M:.*]] = affine.apply affine_map<(d0) -> ((d0 mod 6))> (%i)
// CHECK-DAG:   %[[Q:.*]] = arith.divui %[[M]], %{{.*}} : index
// CHECK-DAG:   %[[R:.*]] = arith.remui %[[M]], %{{.*}} : index
// CHECK:       memref.load %x[%[[R]], %c4, %[[Q]]] : memref<4x10x2xf64>
// UPSTREAM-LABEL: func.func @layout_index
// UPSTREAM-DAG:   arith.divui
// UPSTREAM-DAG:   arith.remui
func.func @layout_index(%x: memref<10x8xf64, #layout.tag<"IS->4SiS">>) {
  %c4 = arith.constant 4 : index
  %c6 = arith.constant 6 : index
  affine.for %i = 5 to 12 step 3 {
    %s = arith.remsi %i, %c6 : index
    %v = memref.load %x[%c4, %s] : memref<10x8xf64, #layout.tag<"IS->4SiS">>
    vector.print %v : f64
  }
  func.return
}

// Vector accesses too: a `vector.load`/`vector.store` on the rewritten index.
// CHECK-LABEL: func.func @own_vector_maps
// CHECK:       %[[Q:.*]] = arith.divui %{{.*}}, %{{.*}} : index
// CHECK:       %[[I:.*]] = affine.apply affine_map<(d0) -> ((d0 + 3))> (%[[Q]])
// CHECK:       %v = vector.load %m[%[[I]]] : memref<16xf64>, vector<2xf64>
// CHECK:       %[[R:.*]] = arith.remui %{{.*}}, %{{.*}} : index
// CHECK:       vector.store %v, %m[%[[R]]] : memref<16xf64>, vector<2xf64>
func.func @own_vector_maps(%m: memref<16xf64>) {
  affine.for %i = 5 to 12 step 3 {
    %v = affine.vector_load %m[(%i mod 6) floordiv 4 + 3] : memref<16xf64>, vector<2xf64>
    affine.vector_store %v, %m[(%i mod 6) mod 4] : memref<16xf64>, vector<2xf64>
  }
  func.return
}
