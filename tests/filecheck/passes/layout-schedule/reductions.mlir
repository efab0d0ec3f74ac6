// Vectors along a reduction loop: where no parallel loop walks a contiguous run (a row
// sum: the rows are contiguous along %j, the result has one element per row), each
// accumulator becomes a vector of partial results, started at the combination's identity,
// the last chunk shorter (widened with the identity by a shuffle), folded into the
// accumulator's own value by one vector.reduction. Float sums need reassociate=true;
// min/max and integer combinations do not depend on the order.
// RUN: layout-opt -v %s -p 'layout-schedule{target=avx2 reassociate=true approximate=false}' -o %t 2>&1 | filecheck %s --check-prefix=REMARK
// RUN: filecheck %s --input-file %t
// RUN: layout-opt -v %s -p 'layout-schedule{target=avx2}' -o /dev/null 2>&1 | filecheck %s --check-prefix=EXACT
// RUN: layout-opt %s -p 'layout-schedule{target=avx2 reassociate=true},layout-lower' | mlir-opt-22 --lower-affine --convert-vector-to-llvm --convert-to-llvm -o /dev/null

// REMARK-DAG: remark: layout-schedule: @row_sum: nest %i: scheduled: loops (%i/4) around the tile, vector<8xf32> along %j (partial results of the reduction), 1 unrolled digit(s); inner loops (%j/8) carry 1 accumulator(s) per copy
// The rows are unrolled (register-tile.mlir's CHAINS: each row's sum is one dependent
// chain of additions; all 4 rows run side by side), each row's additions in its own order.
// CHECK-LABEL: func.func @row_sum(
// CHECK:         %[[ZERO:.*]] = arith.constant -0.000000e+00 : f32
// CHECK-NEXT:    %[[IDENTITY:.*]] = vector.broadcast %[[ZERO]] : f32 to vector<8xf32>
// CHECK-NEXT:    %[[START:.*]] = affine.load %y[0] : memref<4xf32>
// CHECK-COUNT-3: affine.load %y[
// CHECK-NEXT:    %[[SUMS:.*]], %{{.*}}, %{{.*}}, %{{.*}} = affine.for %[[J:.*]] = 0 to 12 iter_args(%[[P:.*]] = %[[IDENTITY]], %{{.*}} = %[[IDENTITY]], %{{.*}} = %[[IDENTITY]], %{{.*}} = %[[IDENTITY]]) -> (vector<8xf32>, vector<8xf32>, vector<8xf32>, vector<8xf32>) {
// CHECK-NEXT:      %[[X:.*]] = affine.vector_load %x[0, %[[J]] * 8] : memref<4x100xf32>, vector<8xf32>
// CHECK-NEXT:      %[[E:.*]] = math.exp %[[X]] : vector<8xf32>
// CHECK-NEXT:      %[[Q:.*]] = arith.addf %[[P]], %[[E]] : vector<8xf32>
// CHECK-NEXT:      affine.vector_load %x[1, %[[J]] * 8] : memref<4x100xf32>, vector<8xf32>
// CHECK:           affine.yield %[[Q]], {{.*}} : vector<8xf32>, vector<8xf32>, vector<8xf32>, vector<8xf32>
// CHECK-NEXT:    }
// CHECK-NEXT:    %[[LAST:.*]] = affine.vector_load %x[0, 96] : memref<4x100xf32>, vector<4xf32>
// CHECK-NEXT:    %[[LE:.*]] = math.exp %[[LAST]] : vector<4xf32>
// CHECK-NEXT:    %[[WIDE:.*]] = vector.shuffle %[[LE]], %[[IDENTITY]] [0, 1, 2, 3, 8, 9, 10, 11] : vector<4xf32>, vector<8xf32>
// CHECK-NEXT:    %[[ALL:.*]] = arith.addf %[[SUMS]], %[[WIDE]] : vector<8xf32>
// CHECK:         %[[SUM:.*]] = vector.reduction <add>, %[[ALL]], %[[START]] : vector<8xf32> into f32
// CHECK:         affine.store %[[SUM]], %y[0] : memref<4xf32>
// EXACT-DAG: remark: layout-schedule: @row_sum: nest %i: not vectorized: affine.load of memref<4x100xf32>: dim 0, walked by %i, is not contiguous in memory; give it a layout whose innermost physical dim is dim 0; nor along a reduction: arith.addf: partial results of arith.addf round differently (needs reassociate=true)
func.func @row_sum(%x: memref<4x100xf32>, %y: memref<4xf32>) {
  affine.for %i = 0 to 4 {
    affine.for %j = 0 to 100 {
      %a = affine.load %x[%i, %j] : memref<4x100xf32>
      %e = math.exp %a : f32
      %s = affine.load %y[%i] : memref<4xf32>
      %t = arith.addf %s, %e : f32
      affine.store %t, %y[%i] : memref<4xf32>
    }
  }
  func.return
}

// A row maximum gives the same result in any order: vectorized without reassociate, a
// single element left over widened with -inf.
// EXACT-DAG: remark: layout-schedule: @row_max: nest %i: scheduled: loops (%i/4) around the tile, vector<8xf32> along %j (partial results of the reduction), 1 unrolled digit(s); inner loops (%j/8) carry 1 accumulator(s) per copy
// CHECK-LABEL: func.func @row_max(
// CHECK:         arith.constant 0xff800000 : f32
// CHECK:         vector.broadcast %{{.*}} : f32 to vector<1xf32>
// CHECK-NEXT:    vector.shuffle %{{.*}}, %{{.*}} [0, 2, 3, 4, 5, 6, 7, 8] : vector<1xf32>, vector<8xf32>
// CHECK:         vector.reduction <maximumf>, %{{.*}}, %{{.*}} : vector<8xf32> into f32
func.func @row_max(%x: memref<4x17xf32>, %y: memref<4xf32>) {
  affine.for %i = 0 to 4 {
    affine.for %j = 0 to 17 {
      %a = affine.load %x[%i, %j] : memref<4x17xf32>
      %s = affine.load %y[%i] : memref<4xf32>
      %t = arith.maximumf %a, %s : f32
      affine.store %t, %y[%i] : memref<4xf32>
    }
  }
  func.return
}

// The accumulator's value also picks an index (an arg max): partial results would lose it.
// REMARK-DAG: remark: layout-schedule: @arg_max: nest %i: not vectorized: {{.*}}; nor along a reduction: arith.maximumf: the accumulator's value is used besides its combination
func.func @arg_max(%x: memref<4x16xf32>, %y: memref<4xf32>, %k: memref<4xindex>) {
  affine.for %i = 0 to 4 {
    affine.for %j = 0 to 16 {
      %a = affine.load %x[%i, %j] : memref<4x16xf32>
      %s = affine.load %y[%i] : memref<4xf32>
      %t = arith.maximumf %a, %s : f32
      affine.store %t, %y[%i] : memref<4xf32>
      %b = arith.cmpf ogt, %a, %s : f32
      %old = affine.load %k[%i] : memref<4xindex>
      %n = arith.select %b, %j, %old : index
      affine.store %n, %k[%i] : memref<4xindex>
    }
  }
  func.return
}

// A running value stored inside the reduction loop (a prefix sum) is no accumulator.
// REMARK-DAG: remark: layout-schedule: @prefix: nest %i: not vectorized: {{.*}}; nor along a reduction: arith.addf: the accumulator's value is used besides its combination
func.func @prefix(%x: memref<4x16xf32>, %y: memref<4xf32>, %z: memref<4x16xf32>) {
  affine.for %i = 0 to 4 {
    affine.for %j = 0 to 16 {
      %a = affine.load %x[%i, %j] : memref<4x16xf32>
      %s = affine.load %y[%i] : memref<4xf32>
      %t = arith.addf %s, %a : f32
      affine.store %t, %y[%i] : memref<4xf32>
      affine.store %t, %z[%i, %j] : memref<4x16xf32>
    }
  }
  func.return
}

// Element-wise code fused into a reduction (a layer norm's variance: the centred row is
// stored, squared and summed) stores one element per iteration: the partial results'
// loop vectorizes it too. The reduction's output leads (its loop carries the sum).
// REMARK-DAG: remark: layout-schedule: @variance: nest %i: scheduled: loops (%i/4) around the tile, vector<8xf32> along %j (partial results of the reduction), 1 unrolled digit(s); inner loops (%j/8) carry 1 accumulator(s) per copy
// CHECK-LABEL: func.func @variance(
// CHECK:         affine.for %{{.*}} = 0 to 4 iter_args(%{{.*}} = %{{.*}}, %{{.*}} = %{{.*}}, %{{.*}} = %{{.*}}, %{{.*}} = %{{.*}}) -> (vector<8xf32>, vector<8xf32>, vector<8xf32>, vector<8xf32>) {
// CHECK:           arith.subf %{{.*}}, %{{.*}} : vector<8xf32>
// CHECK-NEXT:      affine.vector_store %{{.*}}, %d[0, %{{.*}} * 8] : memref<4x32xf32>, vector<8xf32>
// CHECK:         vector.reduction <add>
func.func @variance(%x: memref<4x32xf32>, %m: memref<4xf32>, %d: memref<4x32xf32>, %v: memref<4xf32>) {
  affine.for %i = 0 to 4 {
    affine.for %j = 0 to 32 {
      %a = affine.load %x[%i, %j] : memref<4x32xf32>
      %b = affine.load %m[%i] : memref<4xf32>
      %c = arith.subf %a, %b : f32
      affine.store %c, %d[%i, %j] : memref<4x32xf32>
      %e = affine.load %d[%i, %j] : memref<4x32xf32>
      %f = arith.mulf %e, %e : f32
      %s = affine.load %v[%i] : memref<4xf32>
      %t = arith.addf %s, %f : f32
      affine.store %t, %v[%i] : memref<4xf32>
    }
  }
  func.return
}

// torch-mlir's Softmax keeps an arg max index beside each row's maximum in a buffer that
// nothing reads: it is dropped, with the select that fed it, and the maximum vectorizes.
// A buffer read afterwards (@read_index) stays.
// REMARK-DAG: remark: layout-schedule: @unread_index: dropped a memref<4xi64> buffer: it is written but never read
// REMARK-DAG: remark: layout-schedule: @unread_index: nest %i: scheduled: loops (%i/4) around the tile, vector<8xf32> along %j (partial results of the reduction), 1 unrolled digit(s); inner loops (%j/8) carry 1 accumulator(s) per copy
// REMARK-NOT: @read_index: dropped
// CHECK-LABEL: func.func @unread_index(
// CHECK-NOT:     memref.alloc
// CHECK-NOT:     arith.select
// CHECK:         vector.reduction <maximumf>
// CHECK-LABEL: func.func @read_index(
// CHECK:         memref.alloc
func.func @unread_index(%x: memref<4x16xf32>, %y: memref<4xf32>) {
  %k = memref.alloc() : memref<4xi64>
  affine.for %i = 0 to 4 {
    affine.for %j = 0 to 16 {
      %a = affine.load %x[%i, %j] : memref<4x16xf32>
      %s = affine.load %y[%i] : memref<4xf32>
      %t = arith.maximumf %a, %s : f32
      affine.store %t, %y[%i] : memref<4xf32>
      %b = arith.cmpf ogt, %a, %s : f32
      %jj = arith.index_cast %j : index to i64
      %old = affine.load %k[%i] : memref<4xi64>
      %n = arith.select %b, %jj, %old : i64
      affine.store %n, %k[%i] : memref<4xi64>
    }
  }
  memref.dealloc %k : memref<4xi64>
  func.return
}

func.func @read_index(%x: memref<4x16xf32>, %y: memref<4xf32>, %z: memref<4xi64>) {
  %k = memref.alloc() : memref<4xi64>
  affine.for %i = 0 to 4 {
    affine.for %j = 0 to 16 {
      %a = affine.load %x[%i, %j] : memref<4x16xf32>
      %s = affine.load %y[%i] : memref<4xf32>
      %t = arith.maximumf %a, %s : f32
      affine.store %t, %y[%i] : memref<4xf32>
      %b = arith.cmpf ogt, %a, %s : f32
      %jj = arith.index_cast %j : index to i64
      %old = affine.load %k[%i] : memref<4xi64>
      %n = arith.select %b, %jj, %old : i64
      affine.store %n, %k[%i] : memref<4xi64>
    }
  }
  %first = affine.load %k[0] : memref<4xi64>
  affine.store %first, %z[0] : memref<4xi64>
  memref.dealloc %k : memref<4xi64>
  func.return
}

// A buffer read into a value that a loop carries out (through affine.yield) is read.
// REMARK-NOT: @carried_read: dropped
// CHECK-LABEL: func.func @carried_read(
// CHECK:         memref.alloc
func.func @carried_read(%x: memref<4x16xf32>, %y: memref<4xf32>) -> i64 {
  %k = memref.alloc() : memref<4xi64>
  affine.for %i = 0 to 4 {
    affine.for %j = 0 to 16 {
      %a = affine.load %x[%i, %j] : memref<4x16xf32>
      %s = affine.load %y[%i] : memref<4xf32>
      %t = arith.maximumf %a, %s : f32
      affine.store %t, %y[%i] : memref<4xf32>
      %b = arith.cmpf ogt, %a, %s : f32
      %jj = arith.index_cast %j : index to i64
      %old = affine.load %k[%i] : memref<4xi64>
      %n = arith.select %b, %jj, %old : i64
      affine.store %n, %k[%i] : memref<4xi64>
    }
  }
  %zero = arith.constant 0 : i64
  %sum = affine.for %i = 0 to 4 iter_args(%acc = %zero) -> (i64) {
    %v = affine.load %k[%i] : memref<4xi64>
    %w = arith.addi %acc, %v : i64
    affine.yield %w : i64
  }
  memref.dealloc %k : memref<4xi64>
  func.return %sum : i64
}
