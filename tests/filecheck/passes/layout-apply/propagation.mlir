// layout-apply propagates a new type along the values a buffer flows to: memref.cast
// results, scf.for iter_args (block argument and result), scf.if results, and function
// results — retyped for a private function (and at its calls), converted into a buffer of
// the declared type for a public one.
// RUN: layout-opt %s -p layout-apply | filecheck %s
// RUN: layout-opt %s -p layout-lower | filecheck %s --check-prefix=LOWER

// CHECK-LABEL: func.func @through_cast(%i: index) -> f32 {
// CHECK-NEXT:    %[[M:.*]] = memref.alloc() : memref<2x32xf32, #layout.tag<"NW->NW8w">>
// CHECK-NEXT:    %[[D:.*]] = memref.cast %[[M]] : memref<2x32xf32, #layout.tag<"NW->NW8w">> to memref<?x32xf32, #layout.tag<"NW->NW8w">>
// CHECK-NEXT:    %[[X:.*]] = memref.load %[[D]][%i, %i] : memref<?x32xf32, #layout.tag<"NW->NW8w">>
// LOWER-LABEL: func.func @through_cast(%i: index) -> f32 {
// LOWER:         %[[D:.*]] = memref.cast %{{.*}} : memref<2x4x8xf32> to memref<?x4x8xf32>
// LOWER:         memref.load %[[D]][%i, %{{.*}}, %{{.*}}] : memref<?x4x8xf32>
func.func @through_cast(%i: index) -> f32 {
  %m = memref.alloc() : memref<2x32xf32>
  layout.assign %m to #layout.tag<"NW->NW8w"> : memref<2x32xf32>
  %d = "memref.cast"(%m) : (memref<2x32xf32>) -> memref<?x32xf32>
  %x = memref.load %d[%i, %i] : memref<?x32xf32>
  func.return %x : f32
}

// CHECK-LABEL: func.func @through_loop(%v: f32) -> f32 {
// CHECK-NEXT:    %[[M:.*]] = memref.alloc() : memref<16xf32, #layout.tag<"W->W4w">>
// CHECK:         %[[R:.*]] = scf.for %[[I:.*]] = %{{.*}} to %{{.*}} step %{{.*}} iter_args(%[[B:.*]] = %[[M]]) -> (memref<16xf32, #layout.tag<"W->W4w">>) {
// CHECK-NEXT:      memref.store %v, %[[B]][%[[I]]] : memref<16xf32, #layout.tag<"W->W4w">>
// CHECK-NEXT:      scf.yield %[[B]] : memref<16xf32, #layout.tag<"W->W4w">>
// CHECK-NEXT:    }
// CHECK-NEXT:    %{{.*}} = memref.load %[[R]][%{{.*}}] : memref<16xf32, #layout.tag<"W->W4w">>
// LOWER-LABEL: func.func @through_loop(%v: f32) -> f32 {
// LOWER:         scf.for %{{.*}} = %{{.*}} to %{{.*}} step %{{.*}} iter_args(%{{.*}} = %{{.*}}) -> (memref<4x4xf32>) {
func.func @through_loop(%v: f32) -> f32 {
  %m = memref.alloc() : memref<16xf32>
  layout.assign %m to #layout.tag<"W->W4w"> : memref<16xf32>
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c16 = arith.constant 16 : index
  %r = scf.for %i = %c0 to %c16 step %c1 iter_args(%b = %m) -> (memref<16xf32>) {
    memref.store %v, %b[%i] : memref<16xf32>
    scf.yield %b : memref<16xf32>
  }
  %x = memref.load %r[%c0] : memref<16xf32>
  func.return %x : f32
}

// A private function returning a layout buffer: its result type and its callers' results
// take the layout.
// CHECK-LABEL: func.func private @make() -> memref<16xf32, #layout.tag<"W->W4w">> {
// CHECK-NEXT:    %[[M:.*]] = memref.alloc() : memref<16xf32, #layout.tag<"W->W4w">>
// CHECK-NEXT:    func.return %[[M]] : memref<16xf32, #layout.tag<"W->W4w">>
// CHECK-LABEL: func.func @use_make(%i: index) -> f32 {
// CHECK-NEXT:    %[[M:.*]] = func.call @make() : () -> memref<16xf32, #layout.tag<"W->W4w">>
// CHECK-NEXT:    %{{.*}} = memref.load %[[M]][%i] : memref<16xf32, #layout.tag<"W->W4w">>
// LOWER-LABEL: func.func private @make() -> memref<4x4xf32> {
// LOWER-LABEL: func.func @use_make(%i: index) -> f32 {
// LOWER-NEXT:    %{{.*}} = arith.constant 4 : index
// LOWER-NEXT:    %[[M:.*]] = func.call @make() : () -> memref<4x4xf32>
func.func private @make() -> memref<16xf32> {
  %m = memref.alloc() : memref<16xf32>
  layout.assign %m to #layout.tag<"W->W4w"> : memref<16xf32>
  func.return %m : memref<16xf32>
}
func.func @use_make(%i: index) -> f32 {
  %m = func.call @make() : () -> memref<16xf32>
  %x = memref.load %m[%i] : memref<16xf32>
  func.return %x : f32
}

// A public function returning it: the declared type stays, a converted copy is returned
// (and the layout buffer, which nothing else can reach, is freed).
// CHECK-LABEL: func.func @make_public() -> memref<16xf32> {
// CHECK-NEXT:    %[[M:.*]] = memref.alloc() : memref<16xf32, #layout.tag<"W->W4w">>
// CHECK-NEXT:    %[[R:.*]] = memref.alloc() : memref<16xf32>
// CHECK-NEXT:    layout.convert %[[M]] to %[[R]] : memref<16xf32, #layout.tag<"W->W4w">> to memref<16xf32>
// CHECK-NEXT:    memref.dealloc %[[M]] : memref<16xf32, #layout.tag<"W->W4w">>
// CHECK-NEXT:    func.return %[[R]] : memref<16xf32>
// LOWER-LABEL: func.func @make_public() -> memref<16xf32> {
func.func @make_public() -> memref<16xf32> {
  %m = memref.alloc() : memref<16xf32>
  layout.assign %m to #layout.tag<"W->W4w"> : memref<16xf32>
  func.return %m : memref<16xf32>
}

// scf.if yielding the buffer: the result follows.
// CHECK-LABEL: func.func @through_if(%p: i1, %i: index) -> f32 {
// CHECK:         %[[R:.*]] = scf.if %p -> (memref<16xf32, #layout.tag<"W->W4w">>) {
// CHECK:         memref.load %[[R]][%i] : memref<16xf32, #layout.tag<"W->W4w">>
func.func @through_if(%p: i1, %i: index) -> f32 {
  %m = memref.alloc() : memref<16xf32>
  layout.assign %m to #layout.tag<"W->W4w"> : memref<16xf32>
  %r = scf.if %p -> (memref<16xf32>) {
    scf.yield %m : memref<16xf32>
  } else {
    scf.yield %m : memref<16xf32>
  }
  %x = memref.load %r[%i] : memref<16xf32>
  func.return %x : f32
}
