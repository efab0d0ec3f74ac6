// layout-lower on memref.dim of a '?' dim the layout tiles: the physical buffer holds
// `n ceildiv 4` tiles, not n, so the logical size is the allocation's size operand.
// (Upstream --normalize-memrefs answers with the physical extent, `n ceildiv 4`.) Where no
// allocation in the function holds it, it is an error (invalid-dim-dynamic-tiled.mlir).
// REQUIRES: mlir-opt
// RUN: layout-opt %s -p layout-lower | filecheck %s
// RUN: layout-opt %s -p layout-lower | %mlir_opt > /dev/null

// CHECK-LABEL: func.func @dim_of_allocation(%n: index) -> (index, index) {
// CHECK:         %a = memref.alloc(%{{.*}}, %{{.*}}) : memref<?x?xf32>
// CHECK:         %b = memref.alloca(%{{.*}}) : memref<?x5x4xf32>
// CHECK:         func.return %n, %n : index, index
func.func @dim_of_allocation(%n: index) -> (index, index) {
  %a = memref.alloc(%n) : memref<?xf32, affine_map<(d0) -> (d0 floordiv 4, d0 mod 4)>>
  %b = memref.alloca(%n) : memref<?x5xf32, #layout.tag<"NC->NC4n">>
  %c0 = arith.constant 0 : index
  %d = memref.dim %a, %c0 : memref<?xf32, affine_map<(d0) -> (d0 floordiv 4, d0 mod 4)>>
  %e = memref.dim %b, %c0 : memref<?x5xf32, #layout.tag<"NC->NC4n">>
  memref.dealloc %a : memref<?xf32, affine_map<(d0) -> (d0 floordiv 4, d0 mod 4)>>
  func.return %d, %e : index, index
}

// A '?' dim that is a physical dim of its own keeps the memref.dim of that dim, beside a
// tiled one.
// CHECK-LABEL: func.func @mixed(%a: memref<?x?x?xf32>) -> index {
// CHECK:         %[[P1:.*]] = arith.constant 1 : index
// CHECK:         %[[D:.*]] = memref.dim %a, %[[P1]] : memref<?x?x?xf32>
// CHECK:         func.return %[[D]] : index
func.func @mixed(%a: memref<?x?xf32, affine_map<(d0, d1) -> (d0 floordiv 8, d1, d0 mod 8)>>) -> index {
  %c1 = arith.constant 1 : index
  %d = memref.dim %a, %c1 : memref<?x?xf32, affine_map<(d0, d1) -> (d0 floordiv 8, d1, d0 mod 8)>>
  func.return %d : index
}
