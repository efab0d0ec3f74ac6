// layout-apply converts a public function's argument into its layout on entry, in case the
// function reads it. When the next loop nest overwrites every element before reading any,
// that conversion is dead and layout-schedule drops it (the one back on exit stays).
// RUN: layout-opt -v %s -p 'layout-schedule{vectorize=false tile=0}' -o %t 2>&1 | filecheck %s --check-prefix=REMARK
// RUN: filecheck %s --input-file %t

// REMARK: remark: layout-schedule: @zeroed_first: nest %i: dropped the conversion into memref<4x16xf32, #layout.tag<"MN->NM8n">>: the nest overwrites it before reading
// REMARK-NOT: dropped
// CHECK-LABEL: func.func @zeroed_first(
// CHECK:         %[[T:.*]] = memref.alloc() : memref<4x16xf32, #layout.tag<"MN->NM8n">>
// CHECK-NOT:     layout.convert %y to %[[T]]
// CHECK:         layout.convert %[[T]] to %y
func.func @zeroed_first(%x: memref<4x16xf32>, %y: memref<4x16xf32>) {
  layout.assign %y to #layout.tag<"MN->NM8n"> : memref<4x16xf32>
  %zero = arith.constant 0.0 : f32
  affine.for %i = 0 to 4 {
    affine.for %j = 0 to 16 {
      affine.store %zero, %y[%i, %j] : memref<4x16xf32>
      affine.for %k = 0 to 3 {
        %a = affine.load %x[%i, %j] : memref<4x16xf32>
        %s = affine.load %y[%i, %j] : memref<4x16xf32>
        %t = arith.addf %s, %a : f32
        affine.store %t, %y[%i, %j] : memref<4x16xf32>
      }
    }
  }
  func.return
}

// Accumulating into what the caller passed: the values are read, the conversion stays.
// CHECK-LABEL: func.func @accumulates(
// CHECK:         layout.convert %y to %{{.*}} : memref<4x16xf32> to memref<4x16xf32, #layout.tag<"MN->NM8n">>
func.func @accumulates(%x: memref<4x16xf32>, %y: memref<4x16xf32>) {
  layout.assign %y to #layout.tag<"MN->NM8n"> : memref<4x16xf32>
  affine.for %i = 0 to 4 {
    affine.for %j = 0 to 16 {
      %a = affine.load %x[%i, %j] : memref<4x16xf32>
      %s = affine.load %y[%i, %j] : memref<4x16xf32>
      %t = arith.addf %s, %a : f32
      affine.store %t, %y[%i, %j] : memref<4x16xf32>
    }
  }
  func.return
}

// Half of the rows are written: the other half keeps the caller's values.
// CHECK-LABEL: func.func @half_written(
// CHECK:         layout.convert %y to %{{.*}} : memref<4x16xf32> to memref<4x16xf32, #layout.tag<"MN->NM8n">>
func.func @half_written(%y: memref<4x16xf32>, %v: f32) {
  layout.assign %y to #layout.tag<"MN->NM8n"> : memref<4x16xf32>
  affine.for %i = 0 to 2 {
    affine.for %j = 0 to 16 {
      affine.store %v, %y[%i, %j] : memref<4x16xf32>
    }
  }
  func.return
}

// Another element is read after the store (one of the row the nest has not written yet).
// CHECK-LABEL: func.func @reads_ahead(
// CHECK:         layout.convert %y to %{{.*}} : memref<4x16xf32> to memref<4x16xf32, #layout.tag<"MN->NM8n">>
func.func @reads_ahead(%y: memref<4x16xf32>, %v: f32) {
  layout.assign %y to #layout.tag<"MN->NM8n"> : memref<4x16xf32>
  affine.for %i = 0 to 4 {
    affine.for %j = 0 to 16 {
      affine.store %v, %y[%i, %j] : memref<4x16xf32>
      %n = affine.load %y[%i, 15 - %j] : memref<4x16xf32>
      affine.store %n, %y[%i, %j] : memref<4x16xf32>
    }
  }
  func.return
}
