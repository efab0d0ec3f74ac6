// A comparison's mask in a plain memref of i1, vectorized, in a module without layouts:
// upstream would move a vector<16xi1> as 16 packed bits where the memref holds one i1 per
// byte. The schedule marks the module (layout.by_element), so layout-lower writes the mask
// through the memref's bytes (a byte view, extui/trunci) as it does in a module with layouts,
// instead of keeping the accesses as a module without layouts keeps its own; stock MLIR then
// compiles what the program means.
// RUN: layout-opt %s -p 'layout-schedule{target=avx2 fuse=false}' | filecheck %s --check-prefix=SCHEDULED
// RUN: layout-opt %s -p 'layout-schedule{target=avx2 fuse=false}' | layout-opt -p layout-lower | filecheck %s
// RUN: layout-opt %s -p 'layout-schedule{target=avx2},layout-lower' | mlir-opt-22 --lower-affine --convert-vector-to-llvm --convert-to-llvm --reconcile-unrealized-casts -o /dev/null

// SCHEDULED: builtin.module attributes {layout.by_element} {
// SCHEDULED: affine.vector_store %{{.*}}, %m[%{{.*}}, 0] : memref<4x16xi1>, vector<16xi1>

// CHECK:         builtin.module {
// CHECK-LABEL: func.func @main(
// CHECK:         %[[BYTES:.*]] = builtin.unrealized_conversion_cast %m : memref<4x16xi1> to memref<4x16xi8>
// CHECK:         %[[MASK:.*]] = arith.cmpf olt, %{{.*}}, %{{.*}} : vector<16xf32>
// CHECK-NEXT:    %[[WIDE:.*]] = arith.extui %[[MASK]] : vector<16xi1> to vector<16xi8>
// CHECK-NEXT:    affine.vector_store %[[WIDE]], %[[BYTES]][%{{.*}}, 0] : memref<4x16xi8>, vector<16xi8>
// CHECK:         %[[READ:.*]] = affine.vector_load %[[BYTES]][%{{.*}}, %{{.*}} * 8] : memref<4x16xi8>, vector<8xi8>
// CHECK-NEXT:    %[[BITS:.*]] = arith.trunci %[[READ]] : vector<8xi8> to vector<8xi1>
// CHECK-NEXT:    arith.select %[[BITS]], %{{.*}}, %{{.*}} : vector<8xi1>, vector<8xf32>
// CHECK-NOT:     memref<4x16xi1>, vector
func.func @main(%x: memref<4x16xf32>, %m: memref<4x16xi1>, %y: memref<4x16xf32>) {
  %z = arith.constant 0.0 : f32
  affine.for %i = 0 to 4 {
    affine.for %j = 0 to 16 {
      %a = affine.load %x[%i, %j] : memref<4x16xf32>
      %c = arith.cmpf olt, %a, %z : f32
      affine.store %c, %m[%i, %j] : memref<4x16xi1>
    }
  }
  affine.for %i = 0 to 4 {
    affine.for %j = 0 to 16 {
      %a = affine.load %x[%i, %j] : memref<4x16xf32>
      %c = affine.load %m[%i, %j] : memref<4x16xi1>
      %s = arith.select %c, %z, %a : f32
      affine.store %s, %y[%i, %j] : memref<4x16xf32>
    }
  }
  return
}
