// Round trip of every layout attribute kind with every parameter, in function signatures,
// allocations, loads, stores and calls: through layout-opt, through plain xdsl-opt (the
// xdsl.universe entry point), and through the generic form.
// RUN: layout-opt %s | layout-opt | filecheck %s
// RUN: xdsl-opt %s | xdsl-opt | filecheck %s
// RUN: layout-opt %s --print-op-generic | layout-opt | filecheck %s
// RUN: xdsl-opt %s --print-op-generic | xdsl-opt | filecheck %s
// RUN: layout-opt %s --print-op-generic | filecheck %s --check-prefix=GENERIC

// CHECK-LABEL: func.func @tag(
// CHECK-SAME:    %a: memref<2x17x5x4xf32, #layout.tag<"NCHW->nChw8c">>
// CHECK-SAME:    %b: memref<1x4x4x12xi1, #layout.tag<"NHWC->NHWC6c", pack = vector<6xi1>>>
// CHECK-SAME:    %c: memref<1x4x4x12xi1, #layout.tag<"NHWC->NHWC6c", pad = 1, pack = i6, bit_order = "msb">>
// CHECK-SAME:    -> memref<2x17x5x4xf32, #layout.tag<"NCHW->nChw8c">>
// GENERIC-LABEL: "func.func"() <{sym_name = "tag", function_type = (memref<2x17x5x4xf32, #layout.tag<"NCHW->nChw8c">>, memref<1x4x4x12xi1, #layout.tag<"NHWC->NHWC6c", pack = vector<6xi1>>>, memref<1x4x4x12xi1, #layout.tag<"NHWC->NHWC6c", pad = 1, pack = i6, bit_order = "msb">>) -> memref<2x17x5x4xf32, #layout.tag<"NCHW->nChw8c">>}>
func.func @tag(%a: memref<2x17x5x4xf32, #layout.tag<"NCHW->nChw8c">>,
               %b: memref<1x4x4x12xi1, #layout.tag<"NHWC->NHWC6c", pack = vector<6xi1>>>,
               %c: memref<1x4x4x12xi1, #layout.tag<"NHWC->NHWC6c", pad = 1, pack = i6, bit_order = "msb">>)
    -> memref<2x17x5x4xf32, #layout.tag<"NCHW->nChw8c">> {
  %i = arith.constant 1 : index
  // CHECK: %[[M:.*]] = memref.alloc() : memref<2x17x5x4xf32, #layout.tag<"NCHW->nChw8c", pad = -1.5>>
  // GENERIC: "memref.alloc"() <{operandSegmentSizes = array<i32: 0, 0>}> : () -> memref<2x17x5x4xf32, #layout.tag<"NCHW->nChw8c", pad = -1.5>>
  %m = memref.alloc() : memref<2x17x5x4xf32, #layout.tag<"NCHW->nChw8c", pad = -1.5>>
  // CHECK: %[[V:.*]] = memref.load %a[%i, %i, %i, %i] : memref<2x17x5x4xf32, #layout.tag<"NCHW->nChw8c">>
  %v = memref.load %a[%i, %i, %i, %i] : memref<2x17x5x4xf32, #layout.tag<"NCHW->nChw8c">>
  // CHECK: memref.store %[[V]], %[[M]][%i, %i, %i, %i] : memref<2x17x5x4xf32, #layout.tag<"NCHW->nChw8c", pad = -1.5>>
  memref.store %v, %m[%i, %i, %i, %i] : memref<2x17x5x4xf32, #layout.tag<"NCHW->nChw8c", pad = -1.5>>
  // CHECK: %{{.*}} = memref.load %b[%i, %i, %i, %i] : memref<1x4x4x12xi1, #layout.tag<"NHWC->NHWC6c", pack = vector<6xi1>>>
  %bit = memref.load %b[%i, %i, %i, %i] : memref<1x4x4x12xi1, #layout.tag<"NHWC->NHWC6c", pack = vector<6xi1>>>
  // CHECK: memref.store %{{.*}}, %c[%i, %i, %i, %i] : memref<1x4x4x12xi1, #layout.tag<"NHWC->NHWC6c", pad = 1, pack = i6, bit_order = "msb">>
  memref.store %bit, %c[%i, %i, %i, %i] : memref<1x4x4x12xi1, #layout.tag<"NHWC->NHWC6c", pad = 1, pack = i6, bit_order = "msb">>
  // CHECK: func.return %a : memref<2x17x5x4xf32, #layout.tag<"NCHW->nChw8c">>
  func.return %a : memref<2x17x5x4xf32, #layout.tag<"NCHW->nChw8c">>
}

// CHECK-LABEL: func.func @chunked(
// CHECK-SAME:    %a: memref<1x9x10x40xi8, #layout.chunked<[0, 0, 1, 0, 2, 0, 3, 0, 1, 8, 2, 8, 3, 32], pad = 31>>
// CHECK-SAME:    %b: memref<1x8x8x64xi4, #layout.chunked<[0, 0, 1, 0, 2, 0, 3, 0, 1, 4, 2, 4, 3, 32, 1, 2, 2, 2], pad = -8, pack = i8, bit_order = "msb">>
func.func @chunked(%a: memref<1x9x10x40xi8, #layout.chunked<[0, 0, 1, 0, 2, 0, 3, 0, 1, 8, 2, 8, 3, 32], pad = 31>>,
                   %b: memref<1x8x8x64xi4, #layout.chunked<[0, 0, 1, 0, 2, 0, 3, 0, 1, 4, 2, 4, 3, 32, 1, 2, 2, 2], pad = -8, pack = i8, bit_order = "msb">>) {
  %i = arith.constant 0 : index
  // CHECK: %{{.*}} = memref.load %a[%i, %i, %i, %i] : memref<1x9x10x40xi8, #layout.chunked<[0, 0, 1, 0, 2, 0, 3, 0, 1, 8, 2, 8, 3, 32], pad = 31>>
  %v = memref.load %a[%i, %i, %i, %i] : memref<1x9x10x40xi8, #layout.chunked<[0, 0, 1, 0, 2, 0, 3, 0, 1, 8, 2, 8, 3, 32], pad = 31>>
  func.return
}

// CHECK-LABEL: func.func @map(
// CHECK-SAME:    %a: memref<13x10xf32, #layout.map<affine_map<(d0, d1) -> (d1 floordiv 4, d0 floordiv 4, d1 mod 4, d0 mod 4)>>>
// CHECK-SAME:    %b: memref<4x6xi2, #layout.map<affine_map<(d0, d1) -> (d1, d0 floordiv 2, d0 mod 2)>, shape = [6, 2, 2], pad = 1, pack = i4>>
// CHECK-SAME:    %c: memref<?x8xf64, #layout.map<affine_map<(d0, d1) -> (d0, (d1 floordiv 4) mod 2, d1 mod 4)>, shape = [?, 2, 4], pad = 0.25>>
func.func @map(%a: memref<13x10xf32, #layout.map<affine_map<(d0, d1) -> (d1 floordiv 4, d0 floordiv 4, d1 mod 4, d0 mod 4)>>>,
               %b: memref<4x6xi2, #layout.map<affine_map<(d0, d1) -> (d1, d0 floordiv 2, d0 mod 2)>, shape = [6, 2, 2], pad = 1, pack = i4>>,
               %c: memref<?x8xf64, #layout.map<affine_map<(d0, d1) -> (d0, (d1 floordiv 4) mod 2, d1 mod 4)>, shape = [?, 2, 4], pad = 0.25>>) {
  // CHECK: %{{.*}} = memref.alloc() : memref<4x4xf32, #layout.map<affine_map<(d0, d1) -> (d1, d0)>, shape = [4, 4], pad = 2.5>>
  %m = memref.alloc() : memref<4x4xf32, #layout.map<affine_map<(d0, d1) -> (d1, d0)>, shape = [4, 4], pad = 2.5>>
  func.return
}

// CHECK-LABEL: func.func @strided(
// CHECK-SAME:    %a: memref<4x30xf32, #layout.strided<[40, 1], offset = 3>>
// CHECK-SAME:    %b: memref<3x4xi8, #layout.strided<[1, 3], offset = 0, pad = 7>>
// CHECK-SAME:    %c: memref<2x3xi1, #layout.strided<[3, 1], offset = 2, pack = i8, bit_order = "msb">>
func.func @strided(%a: memref<4x30xf32, #layout.strided<[40, 1], offset = 3>>,
                   %b: memref<3x4xi8, #layout.strided<[1, 3], offset = 0, pad = 7>>,
                   %c: memref<2x3xi1, #layout.strided<[3, 1], offset = 2, pack = i8, bit_order = "msb">>) {
  func.return
}

// CHECK-LABEL: func.func @builtin_layouts(
// CHECK-SAME:    %a: memref<4x30xf32, strided<[40, 1], offset: 3>>
// CHECK-SAME:    %b: memref<13x10xf32, affine_map<(d0, d1) -> ((d1 floordiv 4), (d0 floordiv 4), (d1 mod 4), (d0 mod 4))>>
func.func @builtin_layouts(%a: memref<4x30xf32, strided<[40, 1], offset: 3>>,
                           %b: memref<13x10xf32, affine_map<(d0, d1) -> (d1 floordiv 4, d0 floordiv 4, d1 mod 4, d0 mod 4)>>) {
  func.return
}

// CHECK-LABEL: func.func @caller(
// CHECK:         %{{.*}} = func.call @tag(%a, %b, %c) : (memref<2x17x5x4xf32, #layout.tag<"NCHW->nChw8c">>, memref<1x4x4x12xi1, #layout.tag<"NHWC->NHWC6c", pack = vector<6xi1>>>, memref<1x4x4x12xi1, #layout.tag<"NHWC->NHWC6c", pad = 1, pack = i6, bit_order = "msb">>) -> memref<2x17x5x4xf32, #layout.tag<"NCHW->nChw8c">>
// GENERIC:       "func.call"(%{{.*}}, %{{.*}}, %{{.*}}) <{callee = @tag}> : (memref<2x17x5x4xf32, #layout.tag<"NCHW->nChw8c">>, memref<1x4x4x12xi1, #layout.tag<"NHWC->NHWC6c", pack = vector<6xi1>>>, memref<1x4x4x12xi1, #layout.tag<"NHWC->NHWC6c", pad = 1, pack = i6, bit_order = "msb">>) -> memref<2x17x5x4xf32, #layout.tag<"NCHW->nChw8c">>
func.func @caller(%a: memref<2x17x5x4xf32, #layout.tag<"NCHW->nChw8c">>,
                  %b: memref<1x4x4x12xi1, #layout.tag<"NHWC->NHWC6c", pack = vector<6xi1>>>,
                  %c: memref<1x4x4x12xi1, #layout.tag<"NHWC->NHWC6c", pad = 1, pack = i6, bit_order = "msb">>) {
  %r = func.call @tag(%a, %b, %c) : (memref<2x17x5x4xf32, #layout.tag<"NCHW->nChw8c">>, memref<1x4x4x12xi1, #layout.tag<"NHWC->NHWC6c", pack = vector<6xi1>>>, memref<1x4x4x12xi1, #layout.tag<"NHWC->NHWC6c", pad = 1, pack = i6, bit_order = "msb">>) -> memref<2x17x5x4xf32, #layout.tag<"NCHW->nChw8c">>
  func.return
}
