// i1 globals with unpacked layouts: `true` is repacked as true (xDSL reads it as -1, which
// a uint8 stand-in would store as 255, out of range for i1), and upstream accepts the result.
// RUN: layout-opt %s -p layout-lower | filecheck %s
// RUN: layout-opt %s -p layout-lower | %mlir_opt | filecheck %s --check-prefix=UPSTREAM
// REQUIRES: mlir-opt

// CHECK:      memref.global "private" constant @g : memref<3x2xi1> = dense<{{\[}}[true, false], [false, true], [true, true]]>
// CHECK-NEXT: memref.global "private" constant @h : memref<6xi1> = dense<[true, false, false, true, true, true]>
// CHECK-NEXT: memref.global "private" constant @p : memref<2x1x4xi1> = dense<{{\[\[\[}}true, true, false, false]], {{\[\[}}true, true, true, false]]]>
// UPSTREAM: memref.global "private" constant @g : memref<3x2xi1> = dense<{{\[}}[true, false], [false, true], [true, true]]>
"memref.global"() <{sym_name = "g", sym_visibility = "private", type = memref<2x3xi1, #layout.tag<"AB->BA">>, initial_value = dense<[[true, false, true], [false, true, true]]> : tensor<2x3xi1>, constant}> : () -> ()
"memref.global"() <{sym_name = "h", sym_visibility = "private", type = memref<2x3xi1, strided<[1, 2]>>, initial_value = dense<[[true, false, true], [false, true, true]]> : tensor<2x3xi1>, constant}> : () -> ()
// Blocks of 4 on the columns, the pad slots hold false.
"memref.global"() <{sym_name = "p", sym_visibility = "private", type = memref<2x3xi1, #layout.tag<"AB->AB4b">>, initial_value = dense<[[true, true, false], [true, true, true]]> : tensor<2x3xi1>, constant}> : () -> ()
