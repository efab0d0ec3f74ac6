// Checks in a nest (torch-mlir's Reciprocal asserts every element is not zero): a
// `cf.assert` touches no memory and ends the program when its condition is false, so the
// nest is scheduled like any other; on vectors the lanes' conditions are checked together
// (`vector.reduction <and>`, one assert with the same message). Two nests whose checks have
// different messages stay apart (which one failed first would change).
// RUN: layout-opt -v %s -p 'layout-schedule{target=avx2}' 2>&1 | filecheck %s
// RUN: layout-opt %s -p 'layout-schedule{target=avx2},layout-lower' | mlir-opt-22 --lower-affine --convert-scf-to-cf --convert-vector-to-llvm --convert-to-llvm -o /dev/null

// CHECK-DAG: remark: layout-schedule: @reciprocal: nest %i: scheduled: loops (%i/1, %c/8, %h/1, %w/1) around the tile, vector<8xf32> along %c
// CHECK-DAG: remark: layout-schedule: @same_message: nest %i fused into the body of nest %i
// CHECK-DAG: remark: layout-schedule: @other_messages: nest %i not fused into the body of nest %i: both check conditions (cf.assert) with different messages: another would fail first

// CHECK-LABEL: func.func @reciprocal(
// CHECK:         %[[X:.*]] = vector.transfer_read
// CHECK-NEXT:    %[[NONZERO:.*]] = arith.cmpf one, %[[X]], %{{.*}} : vector<8xf32>
// CHECK-NEXT:    %[[ALL:.*]] = vector.reduction <and>, %[[NONZERO]] : vector<8xi1> into i1
// CHECK-NEXT:    cf.assert %[[ALL]], "unimplemented: tensor with zero element"
// CHECK-NEXT:    arith.divf %{{.*}}, %[[X]] : vector<8xf32>
func.func @reciprocal(%x: memref<1x16x3x3xf32>, %y: memref<1x16x3x3xf32>) {
  layout.assign %x to #layout.tag<"NCHW->nChw8c"> : memref<1x16x3x3xf32>
  layout.assign %y to #layout.tag<"NCHW->nChw8c"> : memref<1x16x3x3xf32>
  %zero = arith.constant 0.0 : f32
  %one = arith.constant 1.0 : f32
  affine.for %i = 0 to 1 {
    affine.for %c = 0 to 16 {
      affine.for %h = 0 to 3 {
        affine.for %w = 0 to 3 {
          %v = affine.load %x[%i, %c, %h, %w] : memref<1x16x3x3xf32>
          %nonzero = arith.cmpf one, %v, %zero : f32
          cf.assert %nonzero, "unimplemented: tensor with zero element"
          %r = arith.divf %one, %v : f32
          affine.store %r, %y[%i, %c, %h, %w] : memref<1x16x3x3xf32>
        }
      }
    }
  }
  func.return
}

// The first nest's store is overwritten by the second's: a check between them does not keep
// it (it touches no memory; a failure ends the program).
// CHECK-LABEL: func.func @same_message(
// CHECK-NOT:     vector_store
// CHECK:         cf.assert {{.*}}, "zero"
// CHECK-NOT:     vector_store
// CHECK:         cf.assert {{.*}}, "zero"
// CHECK-NEXT:    arith.divf
// CHECK-NEXT:    affine.vector_store %{{.*}}, %y
// CHECK-NOT:     affine.for
// CHECK:         func.return
func.func @same_message(%x: memref<16xf32>, %y: memref<16xf32>) {
  %zero = arith.constant 0.0 : f32
  %one = arith.constant 1.0 : f32
  affine.for %i = 0 to 16 {
    %v = affine.load %x[%i] : memref<16xf32>
    %nonzero = arith.cmpf one, %v, %zero : f32
    cf.assert %nonzero, "zero"
    %r = arith.divf %one, %v : f32
    affine.store %r, %y[%i] : memref<16xf32>
  }
  affine.for %i = 0 to 16 {
    %v = affine.load %y[%i] : memref<16xf32>
    %nonzero = arith.cmpf one, %v, %zero : f32
    cf.assert %nonzero, "zero"
    %r = arith.divf %one, %v : f32
    affine.store %r, %y[%i] : memref<16xf32>
  }
  func.return
}

// CHECK-LABEL: func.func @other_messages(
// CHECK:         cf.assert {{.*}}, "zero"
// CHECK:         affine.for
// CHECK:         cf.assert {{.*}}, "negative"
func.func @other_messages(%x: memref<16xf32>, %y: memref<16xf32>) {
  %zero = arith.constant 0.0 : f32
  %one = arith.constant 1.0 : f32
  affine.for %i = 0 to 16 {
    %v = affine.load %x[%i] : memref<16xf32>
    %nonzero = arith.cmpf one, %v, %zero : f32
    cf.assert %nonzero, "zero"
    %r = arith.divf %one, %v : f32
    affine.store %r, %y[%i] : memref<16xf32>
  }
  affine.for %i = 0 to 16 {
    %v = affine.load %y[%i] : memref<16xf32>
    %positive = arith.cmpf ogt, %v, %zero : f32
    cf.assert %positive, "negative"
    %r = math.sqrt %v : f32
    affine.store %r, %y[%i] : memref<16xf32>
  }
  func.return
}
