// layout-lower on memref.global / memref.get_global: the global gets the physical type and
// its initializer is repacked at compile time (pad slots hold the pad value); get_global
// follows the new type and loads index the physical buffer.
// RUN: layout-opt %s -p layout-lower -o %t
// RUN: filecheck %s --input-file %t
// RUN: filecheck %s --input-file %t --check-prefix=NONE
// NONE-NOT: {{#layout|layout\.}}

// [[1, 2, 3], [4, 5, 6]] stored column-major ("HW->wh") is [[1, 4], [2, 5], [3, 6]].
// CHECK:      memref.global "private" constant @w : memref<3x2xi32> = dense<{{\[}}[1, 4], [2, 5], [3, 6]]>
"memref.global"() <{sym_name = "w", sym_visibility = "private", type = memref<2x3xi32, #layout.tag<"HW->wh">>, initial_value = dense<[[1, 2, 3], [4, 5, 6]]> : tensor<2x3xi32>, constant}> : () -> ()

// C = 3 in blocks of 4: one block, the fourth slot is the pad 9.
// CHECK-NEXT: memref.global "private" constant @p : memref<1x1x1x1x4xf32> = dense<{{\[\[\[\[\[}}1.000000e+00, 2.000000e+00, 3.000000e+00, 9.000000e+00]]]]]>
"memref.global"() <{sym_name = "p", sym_visibility = "private", type = memref<1x3x1x1xf32, #layout.tag<"NCHW->nChw4c", pad = 9.0>>, initial_value = dense<[[[[1.0]], [[2.0]], [[3.0]]]]> : tensor<1x3x1x1xf32>, constant}> : () -> ()

// A splat stays a splat of the physical shape.
// CHECK-NEXT: memref.global "private" constant @s : memref<3x2xi32> = dense<7>
"memref.global"() <{sym_name = "s", sym_visibility = "private", type = memref<2x3xi32, #layout.tag<"HW->wh">>, initial_value = dense<7> : tensor<2x3xi32>, constant}> : () -> ()

// An uninitialised global with pad slots is initialised with the pad.
// CHECK-NEXT: memref.global "private" @u : memref<1x1x1x1x4xf32> = dense<9.000000e+00>
"memref.global"() <{sym_name = "u", sym_visibility = "private", type = memref<1x3x1x1xf32, #layout.tag<"NCHW->nChw4c", pad = 9.0>>, initial_value = unit}> : () -> ()

// 4x4 int8 in 2x2 tiles ("HW->HW2h2w"): row-major 0..15 becomes the tiles (0, 1, 4, 5),
// (2, 3, 6, 7), (8, 9, 12, 13), (10, 11, 14, 15).
// CHECK-NEXT: memref.global "private" constant @t : memref<2x2x2x2xi8> = dense<{{\[\[\[\[}}0, 1], [4, 5]], {{\[\[}}2, 3], [6, 7]]], {{\[\[\[}}8, 9], [12, 13]], {{\[\[}}10, 11], [14, 15]]]]>
"memref.global"() <{sym_name = "t", sym_visibility = "private", type = memref<4x4xi8, #layout.tag<"HW->HW2h2w">>, initial_value = dense<[[0, 1, 2, 3], [4, 5, 6, 7], [8, 9, 10, 11], [12, 13, 14, 15]]> : tensor<4x4xi8>, constant}> : () -> ()

// A splat with pad slots is no longer a splat: [5, 5, 5, 9].
// CHECK-NEXT: memref.global "private" constant @p5 : memref<1x1x1x1x4xf32> = dense<{{\[\[\[\[\[}}5.000000e+00, 5.000000e+00, 5.000000e+00, 9.000000e+00]]]]]>
"memref.global"() <{sym_name = "p5", sym_visibility = "private", type = memref<1x3x1x1xf32, #layout.tag<"NCHW->nChw4c", pad = 9.0>>, initial_value = dense<5.0> : tensor<1x3x1x1xf32>, constant}> : () -> ()

// #layout.map (d0, d1) -> (d1, d0 + 1) on 2x3: physical 3x3, column 0 is never mapped (pad 0),
// row d1 holds [pad, A[0][d1], A[1][d1]].
// CHECK-NEXT: memref.global "private" constant @m : memref<3x3xi8> = dense<{{\[}}[0, 1, 4], [0, 2, 5], [0, 3, 6]]>
"memref.global"() <{sym_name = "m", sym_visibility = "private", type = memref<2x3xi8, #layout.map<affine_map<(d0, d1) -> (d1, d0 + 1)>>>, initial_value = dense<[[1, 2, 3], [4, 5, 6]]> : tensor<2x3xi8>, constant}> : () -> ()

// strided<[4, 1], offset = 2> on 4x3: 2 + 3·4 + 2 + 1 = 17 slots; each row of 3 is followed
// by one gap, the first row starts at 2.
// CHECK-NEXT: memref.global "private" constant @r : memref<17xi8> = dense<[0, 0, 1, 2, 3, 0, 4, 5, 6, 0, 7, 8, 9, 0, 10, 11, 12]>
"memref.global"() <{sym_name = "r", sym_visibility = "private", type = memref<4x3xi8, #layout.strided<[4, 1], offset = 2>>, initial_value = dense<[[1, 2, 3], [4, 5, 6], [7, 8, 9], [10, 11, 12]]> : tensor<4x3xi8>, constant}> : () -> ()

// CHECK-LABEL: func.func @read(%i: index, %j: index) -> i32 {
// CHECK-NEXT:    %[[G:.*]] = memref.get_global @w : memref<3x2xi32>
// CHECK-NEXT:    %[[R:.*]] = memref.load %[[G]][%j, %i] : memref<3x2xi32>
// CHECK-NEXT:    func.return %[[R]] : i32
func.func @read(%i: index, %j: index) -> i32 {
  %g = memref.get_global @w : memref<2x3xi32, #layout.tag<"HW->wh">>
  %r = memref.load %g[%i, %j] : memref<2x3xi32, #layout.tag<"HW->wh">>
  func.return %r : i32
}

// CHECK-LABEL: func.func @read_tile(%i: index, %j: index) -> i8 {
// CHECK-NEXT:    %[[C2:.*]] = arith.constant 2 : index
// CHECK-NEXT:    %[[G:.*]] = memref.get_global @t : memref<2x2x2x2xi8>
// CHECK-DAG:     %[[IB:.*]] = arith.divui %i, %[[C2]] : index
// CHECK-DAG:     %[[JB:.*]] = arith.divui %j, %[[C2]] : index
// CHECK-DAG:     %[[II:.*]] = arith.remui %i, %[[C2]] : index
// CHECK-DAG:     %[[JI:.*]] = arith.remui %j, %[[C2]] : index
// CHECK:         memref.load %[[G]][%[[IB]], %[[JB]], %[[II]], %[[JI]]] : memref<2x2x2x2xi8>
func.func @read_tile(%i: index, %j: index) -> i8 {
  %g = memref.get_global @t : memref<4x4xi8, #layout.tag<"HW->HW2h2w">>
  %r = memref.load %g[%i, %j] : memref<4x4xi8, #layout.tag<"HW->HW2h2w">>
  func.return %r : i8
}
