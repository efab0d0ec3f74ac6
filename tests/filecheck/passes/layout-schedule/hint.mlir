// layout.schedule steers the nests that access its buffer: `tile` (register tile in
// elements along the buffer's logical dims), `vector_width` (bits), `skip`. The pass erases
// the hints; layout-lower ignores them (and erases them) when no schedule ran.
// RUN: layout-opt %s -p layout-schedule | filecheck %s
// RUN: layout-opt %s -p layout-lower | filecheck %s --check-prefix=LOWER

// CHECK-LABEL: func.func @tiled(
// CHECK-NOT:     layout.schedule
// CHECK:         affine.for %{{.*}} = 0 to 4 {
// CHECK-NEXT:      affine.for %{{.*}} = 0 to 4 {
// CHECK:             %{{[0-9]+}}, %{{[0-9]+}} = affine.for %{{.*}} = 0 to 16 iter_args({{.*}}) -> (vector<4xf32>, vector<4xf32>)
// LOWER-LABEL: func.func @tiled(
// LOWER-NOT:     layout.schedule
func.func @tiled(%a: memref<8x16xf32>, %b: memref<16x16xf32, #layout.tag<"KN->Nk16n">>, %c: memref<8x16xf32>) {
  layout.schedule %c {tile = array<i64: 2, 4>, vector_width = 128} : memref<8x16xf32>
  affine.for %i = 0 to 8 {
    affine.for %j = 0 to 16 {
      affine.for %k = 0 to 16 {
        %x = affine.load %a[%i, %k] : memref<8x16xf32>
        %y = affine.load %b[%k, %j] : memref<16x16xf32, #layout.tag<"KN->Nk16n">>
        %z = affine.load %c[%i, %j] : memref<8x16xf32>
        %p = arith.mulf %x, %y : f32
        %s = arith.addf %z, %p : f32
        affine.store %s, %c[%i, %j] : memref<8x16xf32>
      }
    }
  }
  func.return
}

// CHECK-LABEL: func.func @skipped(
// CHECK-NEXT:    affine.for %[[J:.*]] = 0 to 16 {
// CHECK-NEXT:      affine.for %[[I:.*]] = 0 to 8 {
// CHECK-NEXT:        affine.store %v, %y[%[[I]], %[[J]]]
func.func @skipped(%y: memref<8x16xf32, #layout.tag<"MN->MN">>, %v: f32) {
  layout.schedule %y {skip} : memref<8x16xf32, #layout.tag<"MN->MN">>
  affine.for %j = 0 to 16 {
    affine.for %i = 0 to 8 {
      affine.store %v, %y[%i, %j] : memref<8x16xf32, #layout.tag<"MN->MN">>
    }
  }
  func.return
}

// A hint on a function argument that layout.assign moves into a new buffer follows it.
// CHECK-LABEL: func.func @assigned(
// CHECK:         memref.alloc() : memref<8x16xf32, #layout.tag<"MN->NM4n">>
// CHECK:         %[[V:.*]] = vector.broadcast %v : f32 to vector<4xf32>
// CHECK-NEXT:    affine.for %[[J:.*]] = 0 to 4 {
// CHECK-NEXT:      affine.for %[[I:.*]] = 0 to 8 {
// CHECK-NEXT:        affine.vector_store %[[V]], %{{.*}}[%[[I]], %[[J]] * 4]
func.func @assigned(%y: memref<8x16xf32>, %v: f32) {
  layout.assign %y to #layout.tag<"MN->NM4n"> : memref<8x16xf32>
  layout.schedule %y {vector_width = 128} : memref<8x16xf32>
  affine.for %i = 0 to 8 {
    affine.for %j = 0 to 16 {
      affine.store %v, %y[%i, %j] : memref<8x16xf32>
    }
  }
  func.return
}
