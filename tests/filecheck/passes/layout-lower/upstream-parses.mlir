// The output of layout-lower is upstream-only IR that MLIR 22's mlir-opt parses and
// verifies, in every option set: split vector accesses (vector.from_elements,
// vector.extract), affine accesses on composed maps, repacked globals, packed containers,
// convert loop nests with scf.if.
// REQUIRES: mlir-opt
// RUN: layout-opt %s -p layout-lower | %mlir_opt | filecheck %s
// RUN: layout-opt %s -p 'layout-lower{index=affine}' | %mlir_opt | filecheck %s --check-prefix=AFFINE
// RUN: layout-opt %s -p 'layout-lower{flatten=true}' | %mlir_opt | filecheck %s --check-prefix=FLAT

// CHECK: memref.global "private" constant @w : memref<3x2xi32> = dense<{{\[}}[1, 4], [2, 5], [3, 6]]>
// FLAT: memref.global "private" constant @w : memref<6xi32> = dense<[1, 4, 2, 5, 3, 6]>
"memref.global"() <{sym_name = "w", sym_visibility = "private", type = memref<2x3xi32, #layout.tag<"HW->wh">>, initial_value = dense<[[1, 2, 3], [4, 5, 6]]> : tensor<2x3xi32>, constant}> : () -> ()

// CHECK-LABEL: func.func @kernel(
// CHECK-SAME:      memref<2x4x8xf32>, %{{.*}}: memref<1x4x4x2xi6>, %{{.*}}: memref<3x4x4x4xf32>
// CHECK:         vector.from_elements
// CHECK:         vector.extract
// CHECK:         arith.shrui
// CHECK:         scf.if
// AFFINE-LABEL: func.func @kernel(
// AFFINE:         affine.load %{{.*}}[%{{.*}} floordiv 4, %{{.*}} floordiv 4, %{{.*}} mod 4, %{{.*}} mod 4] : memref<3x4x4x4xf32>
// FLAT-LABEL: func.func @kernel(
// FLAT-SAME:      memref<64xf32>, %{{.*}}: memref<32xi6>, %{{.*}}: memref<192xf32>
func.func @kernel(%m: memref<2x32xf32, #layout.tag<"NW->NW8w">>, %b: memref<1x4x4x12xi1, #layout.tag<"NHWC->NHWC6c", pack = i6>>,
                  %t: memref<13x10xf32, #layout.map<affine_map<(d0, d1) -> (d1 floordiv 4, d0 floordiv 4, d1 mod 4, d0 mod 4)>>>,
                  %plain: memref<13x10xf32>, %i: index, %j: index, %c: index) -> (vector<4xf32>, i1, f32, i32) {
  %c0 = arith.constant 0 : index
  %c6 = arith.constant 6 : index
  %v = vector.load %m[%c0, %c6] : memref<2x32xf32, #layout.tag<"NW->NW8w">>, vector<4xf32>
  vector.store %v, %m[%c0, %i] : memref<2x32xf32, #layout.tag<"NW->NW8w">>, vector<4xf32>
  %bit = memref.load %b[%c0, %i, %j, %c] : memref<1x4x4x12xi1, #layout.tag<"NHWC->NHWC6c", pack = i6>>
  layout.convert %plain to %t : memref<13x10xf32> to memref<13x10xf32, #layout.map<affine_map<(d0, d1) -> (d1 floordiv 4, d0 floordiv 4, d1 mod 4, d0 mod 4)>>>
  %x = affine.load %t[%i, %j] : memref<13x10xf32, #layout.map<affine_map<(d0, d1) -> (d1 floordiv 4, d0 floordiv 4, d1 mod 4, d0 mod 4)>>>
  %g = memref.get_global @w : memref<2x3xi32, #layout.tag<"HW->wh">>
  %y = memref.load %g[%i, %j] : memref<2x3xi32, #layout.tag<"HW->wh">>
  func.return %v, %bit, %x, %y : vector<4xf32>, i1, f32, i32
}
