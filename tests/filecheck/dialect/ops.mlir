// layout.assign and layout.convert: pretty and generic forms, through layout-opt and xdsl-opt.
// RUN: layout-opt %s | layout-opt | filecheck %s
// RUN: xdsl-opt %s | xdsl-opt | filecheck %s
// RUN: layout-opt %s --print-op-generic | filecheck %s --check-prefix=GENERIC
// RUN: layout-opt %s --print-op-generic | layout-opt | filecheck %s
// RUN: xdsl-opt %s --print-op-generic | layout-opt | filecheck %s

// CHECK-LABEL: func.func @assign(
// CHECK-SAME:      %x: memref<2x17x5x4xf32>, %y: memref<1x4x4x12xi1>, %z: memref<13x10xf32>, %w: memref<4x30xf32, #layout.strided<[40, 1], offset = 3>>) {
// CHECK-NEXT:    %m = memref.alloc() : memref<1x9x10x40xi8>
// CHECK-NEXT:    layout.assign %m to #layout.chunked<[0, 0, 1, 0, 2, 0, 3, 0, 1, 8, 2, 8, 3, 32], pad = 31> : memref<1x9x10x40xi8>
// CHECK-NEXT:    layout.assign %x to #layout.tag<"NCHW->nChw8c"> : memref<2x17x5x4xf32>
// CHECK-NEXT:    layout.assign %x to #layout.tag<"NCHW->nChw8c"> : memref<2x17x5x4xf32>
// CHECK-NEXT:    layout.assign %y to #layout.tag<"NHWC->NHWC6c", pack = i6, bit_order = "msb"> : memref<1x4x4x12xi1>
// CHECK-NEXT:    layout.assign %z to #layout.map<affine_map<(d0, d1) -> (d1 floordiv 4, d0 floordiv 4, d1 mod 4, d0 mod 4)>, shape = [3, 4, 4, 4]> : memref<13x10xf32>
// CHECK-NEXT:    layout.assign %w to #layout.strided<[40, 1], offset = 3> : memref<4x30xf32, #layout.strided<[40, 1], offset = 3>>
// CHECK-NEXT:    func.return
// CHECK-NEXT:  }

// GENERIC-LABEL: "func.func"() <{sym_name = "assign"
// GENERIC:       %m = "memref.alloc"() <{operandSegmentSizes = array<i32: 0, 0>}> : () -> memref<1x9x10x40xi8>
// GENERIC-NEXT:  "layout.assign"(%m) <{layout = #layout.chunked<[0, 0, 1, 0, 2, 0, 3, 0, 1, 8, 2, 8, 3, 32], pad = 31>}> : (memref<1x9x10x40xi8>) -> ()
// GENERIC-NEXT:  "layout.assign"(%x) <{layout = #layout.tag<"NCHW->nChw8c">}> : (memref<2x17x5x4xf32>) -> ()
// GENERIC-NEXT:  "layout.assign"(%x) <{layout = #layout.tag<"NCHW->nChw8c">}> : (memref<2x17x5x4xf32>) -> ()
// GENERIC-NEXT:  "layout.assign"(%y) <{layout = #layout.tag<"NHWC->NHWC6c", pack = i6, bit_order = "msb">}> : (memref<1x4x4x12xi1>) -> ()
func.func @assign(%x: memref<2x17x5x4xf32>, %y: memref<1x4x4x12xi1>, %z: memref<13x10xf32>,
                  %w: memref<4x30xf32, #layout.strided<[40, 1], offset = 3>>) {
  %m = memref.alloc() : memref<1x9x10x40xi8>
  layout.assign %m to #layout.chunked<[0, 0, 1, 0, 2, 0, 3, 0, 1, 8, 2, 8, 3, 32], pad = 31> : memref<1x9x10x40xi8>
  layout.assign %x to #layout.tag<"NCHW->nChw8c"> : memref<2x17x5x4xf32>
  // The same layout twice on one buffer is redundant, not an error.
  layout.assign %x to #layout.tag<"NCHW->nChw8c"> : memref<2x17x5x4xf32>
  layout.assign %y to #layout.tag<"NHWC->NHWC6c", pack = i6, bit_order = "msb"> : memref<1x4x4x12xi1>
  layout.assign %z to #layout.map<affine_map<(d0, d1) -> (d1 floordiv 4, d0 floordiv 4, d1 mod 4, d0 mod 4)>, shape = [3, 4, 4, 4]> : memref<13x10xf32>
  // Assigning the layout a memref already has is allowed.
  layout.assign %w to #layout.strided<[40, 1], offset = 3> : memref<4x30xf32, #layout.strided<[40, 1], offset = 3>>
  func.return
}

// CHECK-LABEL: func.func @convert(
// CHECK-NEXT:    %dst = memref.alloc() : memref<2x17x5x4xf32, #layout.tag<"NCHW->nChw16c", pad = -1.0>>
// CHECK-NEXT:    layout.convert %src to %dst : memref<2x17x5x4xf32, #layout.tag<"NCHW->nChw8c">> to memref<2x17x5x4xf32, #layout.tag<"NCHW->nChw16c", pad = -1.0>>
// CHECK-NEXT:    layout.convert %dst to %plain : memref<2x17x5x4xf32, #layout.tag<"NCHW->nChw16c", pad = -1.0>> to memref<2x17x5x4xf32>
// CHECK-NEXT:    layout.convert %plain to %src : memref<2x17x5x4xf32> to memref<2x17x5x4xf32, #layout.tag<"NCHW->nChw8c">>
// CHECK-NEXT:    func.return
// GENERIC-LABEL: "func.func"() <{sym_name = "convert"
// GENERIC:       "layout.convert"(%src, %dst) : (memref<2x17x5x4xf32, #layout.tag<"NCHW->nChw8c">>, memref<2x17x5x4xf32, #layout.tag<"NCHW->nChw16c", pad = -1.0>>) -> ()
func.func @convert(%src: memref<2x17x5x4xf32, #layout.tag<"NCHW->nChw8c">>, %plain: memref<2x17x5x4xf32>) {
  %dst = memref.alloc() : memref<2x17x5x4xf32, #layout.tag<"NCHW->nChw16c", pad = -1.0>>
  layout.convert %src to %dst : memref<2x17x5x4xf32, #layout.tag<"NCHW->nChw8c">> to memref<2x17x5x4xf32, #layout.tag<"NCHW->nChw16c", pad = -1.0>>
  layout.convert %dst to %plain : memref<2x17x5x4xf32, #layout.tag<"NCHW->nChw16c", pad = -1.0>> to memref<2x17x5x4xf32>
  layout.convert %plain to %src : memref<2x17x5x4xf32> to memref<2x17x5x4xf32, #layout.tag<"NCHW->nChw8c">>
  func.return
}

// CHECK-LABEL: func.func @dynamic(
// CHECK-NEXT:    layout.assign %a to #layout.tag<"NCHW->NHWC"> : memref<?x3x?x?xf32>
// CHECK-NEXT:    layout.convert %a to %b : memref<?x3x?x?xf32> to memref<?x3x?x?xf32, #layout.tag<"NCHW->NHWC">>
func.func @dynamic(%a: memref<?x3x?x?xf32>, %b: memref<?x3x?x?xf32, #layout.tag<"NCHW->NHWC">>) {
  layout.assign %a to #layout.tag<"NCHW->NHWC"> : memref<?x3x?x?xf32>
  layout.convert %a to %b : memref<?x3x?x?xf32> to memref<?x3x?x?xf32, #layout.tag<"NCHW->NHWC">>
  func.return
}
