// The result type of a view of a layout-typed memref is the one upstream gives the same view
// of the layout-free program (the root counts as row-major from offset 0, `?` matches
// anything); a type that contradicts the window, or a #layout on the view, is an error
// naming the op and giving the expected type.
// RUN: layout-opt %s --split-input-file --verify-diagnostics | filecheck %s

// CHECK: memref.subview of a layout-typed memref: the result type memref<2x16xf32, strided<[64, 1], offset: 16>> does not describe the view: as upstream types it on the layout-free program it is strided<[64, 1], offset: 80>
func.func @wrong_offset(%a: memref<4x64xf32, #layout.tag<"NC->NC16c">>) {
  %s = memref.subview %a[1, 16] [2, 16] [1, 1] : memref<4x64xf32, #layout.tag<"NC->NC16c">> to memref<2x16xf32, strided<[64, 1], offset: 16>>
  func.return
}

// -----
// CHECK: memref.subview of a layout-typed memref: the result type memref<16xf32, #layout.tag<"C->C16c">> does not describe the view: as upstream types it on the layout-free program it is strided<[1], offset: 16>
func.func @layout_on_view(%a: memref<64xf32, #layout.tag<"C->C16c">>) {
  %s = memref.subview %a[16] [16] [1] : memref<64xf32, #layout.tag<"C->C16c">> to memref<16xf32, #layout.tag<"C->C16c">>
  func.return
}

// -----
// CHECK: memref.expand_shape of a layout-typed memref: the result type memref<2x32xf32, strided<[64, 1]>> does not describe the view: as upstream types it on the layout-free program it is strided<[32, 1], offset: 0>
func.func @wrong_expand(%a: memref<64xf32, #layout.tag<"C->C16c">>) {
  %e = memref.expand_shape %a [[0, 1]] output_shape [2, 32] : memref<64xf32, #layout.tag<"C->C16c">> into memref<2x32xf32, strided<[64, 1]>>
  func.return
}

// -----
// Upstream-style types pass: static, partly dynamic, fully dynamic, identity.
// CHECK-LABEL: func.func @upstream_types
func.func @upstream_types(%a: memref<4x64xf32, #layout.tag<"NC->NC16c">>, %n: index) {
  %s = memref.subview %a[1, 16] [2, 16] [1, 1] : memref<4x64xf32, #layout.tag<"NC->NC16c">> to memref<2x16xf32, strided<[64, 1], offset: 80>>
  %d = memref.subview %a[%n, 16] [2, 16] [1, 2] : memref<4x64xf32, #layout.tag<"NC->NC16c">> to memref<2x16xf32, strided<[64, 2], offset: ?>>
  %u = memref.subview %a[1, 16] [2, 16] [1, 1] : memref<4x64xf32, #layout.tag<"NC->NC16c">> to memref<2x16xf32, strided<[?, ?], offset: ?>>
  %c = memref.collapse_shape %a [[0, 1]] : memref<4x64xf32, #layout.tag<"NC->NC16c">> into memref<256xf32>
  %r = memref.subview %s[0, 0] [1, 16] [1, 1] : memref<2x16xf32, strided<[64, 1], offset: 80>> to memref<16xf32, strided<[1], offset: 80>>
  func.return
}
