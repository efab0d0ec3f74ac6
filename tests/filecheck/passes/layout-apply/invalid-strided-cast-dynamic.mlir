// A builtin strided layout carried through memref.cast onto a shape with '?' would become
// upstream's view type (no layout): the lowering left the cast and the copy on the physical
// buffer (found by the fuzzer, seed 105071). It is refused, pointing at the cast; the same
// layout on a static cast is applied.
// RUN: not layout-opt %s -p layout-apply 2>&1 | filecheck %s
// RUN: not layout-opt %s -p layout-lower 2>&1 | filecheck %s
// RUN: sed 's/6x?x?xi32/6x3x4xi32/g' %s | layout-opt -p layout-apply | filecheck %s --check-prefix=STATIC

// CHECK: layout-apply: memref.cast to memref<6x?x?xi32> would carry the layout strided<[3, 66, 16], offset: 4> onto a shape with '?'
// CHECK: "memref.cast"(%0) : (memref<6x3x4xi32, strided<[3, 66, 16], offset: 4>>) -> memref<6x?x?xi32>
// CHECK-NEXT: ^^^^^^^^^^^^^

// STATIC-LABEL: func.func @kernel
// STATIC: %[[B:.*]] = memref.alloc() : memref<6x3x4xi32, strided<[3, 66, 16], offset: 4>>
// STATIC: layout.convert %{{.*}} to %[[B]]
// STATIC: memref.cast %[[B]] : memref<6x3x4xi32, strided<[3, 66, 16], offset: 4>> to memref<6x3x4xi32, strided<[3, 66, 16], offset: 4>>
func.func @kernel(%A: memref<6x3x4xi32>, %B: memref<6x?x?xi32>) {
  %cast = memref.cast %A : memref<6x3x4xi32> to memref<6x?x?xi32>
  memref.copy %cast, %B : memref<6x?x?xi32> to memref<6x?x?xi32>
  layout.assign %A to strided<[3, 66, 16], offset: 4> : memref<6x3x4xi32>
  func.return
}
