// layout-lower on affine.parallel whose "assign" reduction yields a layout-typed memref
// (upstream's affine_parallel_norm, mlir/test/Dialect/MemRef/normalize-memrefs.mlir): its
// result takes the physical type like any value a region yields; the accesses in its body
// are lowered. layout-apply retypes the result of a layout.assign'ed buffer it yields, as it
// does for affine.if.
// RUN: layout-opt %s -p layout-lower -o %t
// RUN: filecheck %s --input-file %t
// RUN: filecheck %s --input-file %t --check-prefix=NONE
// RUN: layout-opt %s -p layout-apply | filecheck %s --check-prefix=APPLY
// NONE-NOT: {{#layout|layout\.|, affine_map}}

// CHECK-LABEL: func.func @affine_parallel_norm() -> memref<2x4xf32> {
// CHECK:         %[[A:.*]] = memref.alloc() : memref<2x4xf32>
// CHECK-NEXT:    %[[R:.*]] = affine.parallel (%[[I:.*]]) = (0) to (8) reduce ("assign") -> memref<2x4xf32> {
// CHECK-NEXT:      %[[Q:.*]] = arith.divui %[[I]], %{{.*}} : index
// CHECK-NEXT:      %[[M:.*]] = arith.remui %[[I]], %{{.*}} : index
// CHECK-NEXT:      memref.store %{{.*}}, %[[A]][%[[Q]], %[[M]]] : memref<2x4xf32>
// CHECK-NEXT:      affine.yield %[[A]] : memref<2x4xf32>
// CHECK-NEXT:    }
// CHECK-NEXT:    func.return %[[R]] : memref<2x4xf32>
func.func @affine_parallel_norm() -> memref<8xf32, affine_map<(i) -> (i floordiv 4, i mod 4)>> {
  %c = arith.constant 23.0 : f32
  %a = memref.alloc() : memref<8xf32, affine_map<(i) -> (i floordiv 4, i mod 4)>>
  %1 = affine.parallel (%i) = (0) to (8) reduce ("assign") -> memref<8xf32, affine_map<(i) -> (i floordiv 4, i mod 4)>> {
    affine.store %c, %a[%i] : memref<8xf32, affine_map<(i) -> (i floordiv 4, i mod 4)>>
    affine.yield %a : memref<8xf32, affine_map<(i) -> (i floordiv 4, i mod 4)>>
  }
  return %1 : memref<8xf32, affine_map<(i) -> (i floordiv 4, i mod 4)>>
}

// APPLY-LABEL: func.func @assigned(
// APPLY:         %{{.*}} = affine.parallel (%{{.*}}, %{{.*}}) = (0, 0) to (2, 17) reduce ("assign", "addf") -> (memref<2x17xf32, #layout.tag<"NC->NC8c">>, f32) {
// APPLY:         %{{.*}} = affine.if {{.*}}(%{{.*}}) -> memref<2x17xf32, #layout.tag<"NC->NC8c">> {
// CHECK-LABEL: func.func @assigned(%x: f32, %n: index) -> f32 {
// CHECK:         %{{.*}} = memref.alloc() : memref<2x3x8xf32>
// CHECK:         affine.parallel (%{{.*}}, %{{.*}}) = (0, 0) to (2, 17) reduce ("assign", "addf") -> (memref<2x3x8xf32>, f32) {
// CHECK:         affine.if {{.*}}(%n) -> memref<2x3x8xf32> {
func.func @assigned(%x: f32, %n: index) -> f32 {
  %a = memref.alloc() : memref<2x17xf32>
  layout.assign %a to #layout.tag<"NC->NC8c"> : memref<2x17xf32>
  %b, %s = affine.parallel (%i, %j) = (0, 0) to (2, 17) reduce ("assign", "addf") -> (memref<2x17xf32>, f32) {
    affine.store %x, %a[%i, %j] : memref<2x17xf32>
    affine.yield %a, %x : memref<2x17xf32>, f32
  }
  %c = affine.if affine_set<(d0) : (d0 - 1 >= 0)>(%n) -> memref<2x17xf32> {
    affine.yield %b : memref<2x17xf32>
  } else {
    affine.yield %a : memref<2x17xf32>
  }
  %v = affine.load %c[1, 16] : memref<2x17xf32>
  %r = arith.addf %v, %s : f32
  memref.dealloc %a : memref<2x17xf32>
  return %r : f32
}
