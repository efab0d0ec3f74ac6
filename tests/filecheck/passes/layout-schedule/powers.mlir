// A constant power becomes the multiplications LLVM makes of `llvm.powi` (square and
// multiply, low bit first; a reciprocal for a negative power; 1 for the zeroth), vectorized
// with the nest: upstream's lowering takes `math.fpowi` on scalars only (`llvm.intr.powi`
// wants a scalar power). A power known only at run time keeps the nest scalar, with a remark.
// RUN: layout-opt -v %s -p 'layout-schedule{target=avx2 plain=true}' -o %t 2>&1 | filecheck %s --check-prefix=REMARK
// RUN: filecheck %s --input-file %t
// RUN: layout-opt %s -p 'layout-schedule{target=avx2 plain=true},layout-lower' | mlir-opt-22 --lower-affine --convert-vector-to-llvm --convert-to-llvm -o /dev/null

// REMARK-DAG: remark: layout-schedule: @cube: nest %i: scheduled: loops (%i/1, %j/8) around the tile, vector<8xf32> along %j
// REMARK-DAG: remark: layout-schedule: @inverse_fourth: nest %i: scheduled: loops (%i/1, %j/8) around the tile, vector<8xf32> along %j
// REMARK-DAG: remark: layout-schedule: @run_time_power: nest %i: not vectorized: math.fpowi of a power known only at run time has no vector form in upstream's lowering

// CHECK-LABEL: func.func @cube(
// CHECK:         %[[X:.*]] = affine.vector_load %x[%{{.*}}, %{{.*}} * 8] : memref<4x16xf32>, vector<8xf32>
// CHECK-NEXT:    %[[SQUARE:.*]] = arith.mulf %[[X]], %[[X]] : vector<8xf32>
// CHECK-NEXT:    %[[CUBE:.*]] = arith.mulf %[[X]], %[[SQUARE]] : vector<8xf32>
// CHECK-NEXT:    affine.vector_store %[[CUBE]], %y
// CHECK-NOT:     math.fpowi
func.func @cube(%x: memref<4x16xf32>, %y: memref<4x16xf32>) {
  %c3 = arith.constant 3 : i64
  affine.for %i = 0 to 4 {
    affine.for %j = 0 to 16 {
      %a = affine.load %x[%i, %j] : memref<4x16xf32>
      %p = math.fpowi %a, %c3 : f32, i64
      affine.store %p, %y[%i, %j] : memref<4x16xf32>
    }
  }
  return
}

// CHECK-LABEL: func.func @inverse_fourth(
// CHECK:         %[[X:.*]] = affine.vector_load %x
// CHECK-NEXT:    %[[SQUARE:.*]] = arith.mulf %[[X]], %[[X]] : vector<8xf32>
// CHECK-NEXT:    %[[FOURTH:.*]] = arith.mulf %[[SQUARE]], %[[SQUARE]] : vector<8xf32>
// CHECK-NEXT:    %[[ONE:.*]] = arith.constant 1.000000e+00 : f32
// CHECK-NEXT:    %[[ONES:.*]] = vector.broadcast %[[ONE]] : f32 to vector<8xf32>
// CHECK-NEXT:    %[[INVERSE:.*]] = arith.divf %[[ONES]], %[[FOURTH]] : vector<8xf32>
// CHECK-NEXT:    affine.vector_store %[[INVERSE]], %y
func.func @inverse_fourth(%x: memref<4x16xf32>, %y: memref<4x16xf32>) {
  %c = arith.constant -4 : i32
  affine.for %i = 0 to 4 {
    affine.for %j = 0 to 16 {
      %a = affine.load %x[%i, %j] : memref<4x16xf32>
      %p = math.fpowi %a, %c : f32, i32
      affine.store %p, %y[%i, %j] : memref<4x16xf32>
    }
  }
  return
}

// CHECK-LABEL: func.func @zeroth(
// CHECK:         %[[ONE:.*]] = arith.constant 1.000000e+00 : f32
// CHECK-NEXT:    %[[ONES:.*]] = vector.broadcast %[[ONE]] : f32 to vector<8xf32>
// CHECK-NEXT:    affine.vector_store %[[ONES]], %y
func.func @zeroth(%x: memref<4x16xf32>, %y: memref<4x16xf32>) {
  %c = arith.constant 0 : i32
  affine.for %i = 0 to 4 {
    affine.for %j = 0 to 16 {
      %a = affine.load %x[%i, %j] : memref<4x16xf32>
      %p = math.fpowi %a, %c : f32, i32
      affine.store %p, %y[%i, %j] : memref<4x16xf32>
    }
  }
  return
}

// CHECK-LABEL: func.func @run_time_power(
// CHECK:         %[[A:.*]] = affine.load %x
// CHECK-NEXT:    math.fpowi %[[A]], %n : f32, i32
func.func @run_time_power(%x: memref<4x16xf32>, %y: memref<4x16xf32>, %n: i32) {
  affine.for %i = 0 to 4 {
    affine.for %j = 0 to 16 {
      %a = affine.load %x[%i, %j] : memref<4x16xf32>
      %p = math.fpowi %a, %n : f32, i32
      affine.store %p, %y[%i, %j] : memref<4x16xf32>
    }
  }
  return
}
