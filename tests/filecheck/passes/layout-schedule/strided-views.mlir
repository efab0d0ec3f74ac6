// A view whose offset is known only at run time keeps the strides of its type: a nest
// walking its innermost dim with stride 2 is not vectorized along it (vector.load needs a
// unit stride there, and mlir-opt-22 refuses one); with stride 1 it is. Fuzz seed 570944
// (its plain twin, scheduled: the view was taken for a row-major buffer).
// RUN: layout-opt -v %s -p 'layout-schedule{target=avx2}' -o %t 2>&1 | filecheck %s --check-prefix=REMARK
// RUN: filecheck %s --input-file %t
// RUN: layout-opt %s -p 'layout-schedule{target=avx2},layout-lower' | mlir-opt-22 --lower-affine --convert-vector-to-llvm --convert-to-llvm -o /dev/null

// REMARK-DAG: remark: layout-schedule: @every_other: nest %i: not vectorized: affine.load of memref<8x8xf32, strided<[16, 2], offset: ?>>: dim 1, walked by %j, is not contiguous in memory
// REMARK-DAG: remark: layout-schedule: @unit_stride: nest %i: scheduled: loops (%i/1, %j/8) around the tile, vector<8xf32> along %j

// CHECK-LABEL: func.func @every_other(
// CHECK-NOT:     vector
// CHECK:         func.return
func.func @every_other(%x: memref<8x16xf32>, %y: memref<8x8xf32>, %o: index) {
  %v = memref.subview %x[0, %o] [8, 8] [1, 2] : memref<8x16xf32> to memref<8x8xf32, strided<[16, 2], offset: ?>>
  affine.for %i = 0 to 8 {
    affine.for %j = 0 to 8 {
      %a = affine.load %v[%i, %j] : memref<8x8xf32, strided<[16, 2], offset: ?>>
      %b = arith.addf %a, %a : f32
      affine.store %b, %y[%i, %j] : memref<8x8xf32>
    }
  }
  func.return
}

// CHECK-LABEL: func.func @unit_stride(
// CHECK:         affine.vector_load %{{.*}} : memref<8x8xf32, strided<[16, 1], offset: ?>>, vector<8xf32>
func.func @unit_stride(%x: memref<8x16xf32>, %y: memref<8x8xf32>, %o: index) {
  %v = memref.subview %x[0, %o] [8, 8] [1, 1] : memref<8x16xf32> to memref<8x8xf32, strided<[16, 1], offset: ?>>
  affine.for %i = 0 to 8 {
    affine.for %j = 0 to 8 {
      %a = affine.load %v[%i, %j] : memref<8x8xf32, strided<[16, 1], offset: ?>>
      %b = arith.addf %a, %a : f32
      affine.store %b, %y[%i, %j] : memref<8x8xf32>
    }
  }
  func.return
}
