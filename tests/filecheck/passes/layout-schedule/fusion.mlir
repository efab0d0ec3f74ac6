// Fusion (passes/schedule/fusion.py): the zero fill before a matmul seeds its accumulators,
// and the bias add and ReLU after it run on them before the one store of each vector, as
// oneDNN's post-ops. A nest that reads a neighbour of what the other writes stays apart.
// RUN: layout-opt -v %s -p 'layout-schedule{target=avx2}' 2>&1 | filecheck %s
// RUN: layout-opt -v %s -p 'layout-schedule{target=avx2 fuse=false}' 2>&1 | filecheck %s --check-prefix=APART

// CHECK-DAG: remark: layout-schedule: @dense: nest %i fused before the inner loops of nest %i
// CHECK-DAG: remark: layout-schedule: @dense: nest %i fused after the inner loops of nest %i
// CHECK-DAG: remark: layout-schedule: @shifted: nest %i not fused into the body of nest %i: %y is accessed at different indices or through different views
// CHECK-DAG: remark: layout-schedule: @row_maximum: nest %r not fused after the inner loops of nest %i: it writes %m across iterations of the outer loops, which would then carry a dependence
// CHECK-DAG: remark: layout-schedule: @row_maximum: nest %i: scheduled: loops (%j/32, %i/2) around the tile, vector<8xf32> along %j
// APART-NOT: fused
// CHECK-LABEL: func.func @dense(
// CHECK:         %[[ZERO:.*]] = vector.broadcast %zero : f32 to vector<8xf32>
// CHECK-NEXT:    %[[ACC0:[^,]*]], %[[ACC1:[^,]*]], %{{.*}}, %{{.*}} = affine.for %k = 0 to 16 iter_args(%{{.*}} = %[[ZERO]], %{{.*}} = %[[ZERO]], %{{.*}} = %[[ZERO]], %{{.*}} = %[[ZERO]])
// CHECK:         }
// CHECK-NEXT:    %[[BIAS:.*]] = affine.vector_load %b[0] : memref<8xf32>, vector<8xf32>
// CHECK-NEXT:    %[[SUM:.*]] = arith.addf %[[ACC0]], %[[BIAS]] : vector<8xf32>
// CHECK-NEXT:    %[[POSITIVE:.*]] = arith.cmpf ugt, %[[SUM]], %[[ZERO]] : vector<8xf32>
// CHECK-NEXT:    %[[RELU:.*]] = arith.select %[[POSITIVE]], %[[SUM]], %[[ZERO]] : vector<8xi1>, vector<8xf32>
// CHECK-NEXT:    affine.vector_store %[[RELU]], %y[0, 0] : memref<4x8xf32>, vector<8xf32>
// CHECK-NEXT:    %[[SUM1:.*]] = arith.addf %[[ACC1]], %[[BIAS]] : vector<8xf32>
// CHECK-NOT:     affine.vector_load %y
// CHECK:         affine.vector_store %{{.*}}, %y[3, 0] : memref<4x8xf32>, vector<8xf32>
// CHECK-NEXT:    func.return
func.func @dense(%x: memref<4x16xf32>, %w: memref<16x8xf32>, %b: memref<8xf32>, %y: memref<4x8xf32>) {
  %zero = arith.constant 0.0 : f32
  affine.for %i = 0 to 4 {
    affine.for %j = 0 to 8 {
      affine.store %zero, %y[%i, %j] : memref<4x8xf32>
    }
  }
  affine.for %i = 0 to 4 {
    affine.for %j = 0 to 8 {
      affine.for %k = 0 to 16 {
        %a = affine.load %x[%i, %k] : memref<4x16xf32>
        %e = affine.load %w[%k, %j] : memref<16x8xf32>
        %s = affine.load %y[%i, %j] : memref<4x8xf32>
        %m = arith.mulf %a, %e : f32
        %t = arith.addf %s, %m : f32
        affine.store %t, %y[%i, %j] : memref<4x8xf32>
      }
    }
  }
  affine.for %i = 0 to 4 {
    affine.for %j = 0 to 8 {
      %s = affine.load %y[%i, %j] : memref<4x8xf32>
      %c = affine.load %b[%j] : memref<8xf32>
      %t = arith.addf %s, %c : f32
      %p = arith.cmpf ugt, %t, %zero : f32
      %r = arith.select %p, %t, %zero : f32
      affine.store %r, %y[%i, %j] : memref<4x8xf32>
    }
  }
  func.return
}

// CHECK-LABEL: func.func @shifted(
func.func @shifted(%x: memref<9xf32>, %y: memref<9xf32>, %z: memref<8xf32>) {
  affine.for %i = 0 to 8 {
    %a = affine.load %x[%i] : memref<9xf32>
    affine.store %a, %y[%i] : memref<9xf32>
  }
  affine.for %i = 0 to 8 {
    %a = affine.load %y[%i + 1] : memref<9xf32>
    affine.store %a, %z[%i] : memref<8xf32>
  }
  func.return
}

// A maximum over the producer's vector loop (a softmax's or an arg max's over a
// convolution's channels) stays apart: fused after the inner loops it would make %j carry
// a dependence, and the producer would run scalar.
func.func @row_maximum(%a: memref<8x16xf32>, %b: memref<16x32xf32>, %c: memref<8x32xf32>,
                       %m: memref<8xf32>) {
  affine.for %i = 0 to 8 {
    affine.for %j = 0 to 32 {
      affine.for %k = 0 to 16 {
        %x = affine.load %a[%i, %k] : memref<8x16xf32>
        %y = affine.load %b[%k, %j] : memref<16x32xf32>
        %s = affine.load %c[%i, %j] : memref<8x32xf32>
        %p = arith.mulf %x, %y : f32
        %t = arith.addf %s, %p : f32
        affine.store %t, %c[%i, %j] : memref<8x32xf32>
      }
    }
  }
  affine.for %r = 0 to 8 {
    affine.for %q = 0 to 32 {
      %v = affine.load %c[%r, %q] : memref<8x32xf32>
      %o = affine.load %m[%r] : memref<8xf32>
      %n = arith.maximumf %o, %v : f32
      affine.store %n, %m[%r] : memref<8xf32>
    }
  }
  func.return
}
