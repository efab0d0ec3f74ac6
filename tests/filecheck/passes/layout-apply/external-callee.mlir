// layout-apply where a layout buffer meets a function whose signature cannot change: an
// external declaration (it may write: convert before and after the call) and a public
// function defined here (converted after only when it may write).
// RUN: layout-opt %s -p layout-apply | filecheck %s
// RUN: layout-opt %s -p layout-lower | filecheck %s --check-prefix=LOWER

// CHECK: func.func private @external(memref<16xf32>) -> ()
// LOWER: func.func private @external(memref<16xf32>) -> ()
func.func private @external(memref<16xf32>)

// CHECK-LABEL: func.func @to_external() {
// CHECK-NEXT:    %[[M:.*]] = memref.alloc() : memref<16xf32, #layout.tag<"W->W4w">>
// CHECK-NEXT:    %[[T:.*]] = memref.alloc() : memref<16xf32>
// CHECK-NEXT:    layout.convert %[[M]] to %[[T]] : memref<16xf32, #layout.tag<"W->W4w">> to memref<16xf32>
// CHECK-NEXT:    func.call @external(%[[T]]) : (memref<16xf32>) -> ()
// CHECK-NEXT:    layout.convert %[[T]] to %[[M]] : memref<16xf32> to memref<16xf32, #layout.tag<"W->W4w">>
// CHECK-NEXT:    memref.dealloc %[[T]] : memref<16xf32>
// CHECK-NEXT:    func.return
// After lowering, the call still passes a plain memref<16xf32>.
// LOWER-LABEL: func.func @to_external() {
// LOWER:         %[[M:.*]] = memref.alloc() : memref<4x4xf32>
// LOWER:         %[[T:.*]] = memref.alloc() : memref<16xf32>
// LOWER:         func.call @external(%[[T]]) : (memref<16xf32>) -> ()
// LOWER:         memref.store %{{.*}}, %[[M]][%{{.*}}, %{{.*}}] : memref<4x4xf32>
// LOWER:         memref.dealloc %[[T]] : memref<16xf32>
func.func @to_external() {
  %m = memref.alloc() : memref<16xf32>
  layout.assign %m to #layout.tag<"W->W4w"> : memref<16xf32>
  func.call @external(%m) : (memref<16xf32>) -> ()
  func.return
}

// A public function defined in the module keeps its signature even though its only caller
// passes a layout buffer; it only reads, so nothing is converted back.
// CHECK-LABEL: func.func @public_reader(%b: memref<16xf32>) -> f32 {
func.func @public_reader(%b: memref<16xf32>) -> f32 {
  %c0 = arith.constant 0 : index
  %x = memref.load %b[%c0] : memref<16xf32>
  func.return %x : f32
}

// CHECK-LABEL: func.func @to_public_reader() -> f32 {
// CHECK-NEXT:    %[[M:.*]] = memref.alloc() : memref<16xf32, #layout.tag<"W->W4w">>
// CHECK-NEXT:    %[[T:.*]] = memref.alloc() : memref<16xf32>
// CHECK-NEXT:    layout.convert %[[M]] to %[[T]] : memref<16xf32, #layout.tag<"W->W4w">> to memref<16xf32>
// CHECK-NEXT:    %[[X:.*]] = func.call @public_reader(%[[T]]) : (memref<16xf32>) -> f32
// CHECK-NEXT:    memref.dealloc %[[T]] : memref<16xf32>
// CHECK-NEXT:    func.return %[[X]] : f32
func.func @to_public_reader() -> f32 {
  %m = memref.alloc() : memref<16xf32>
  layout.assign %m to #layout.tag<"W->W4w"> : memref<16xf32>
  %x = func.call @public_reader(%m) : (memref<16xf32>) -> f32
  func.return %x : f32
}

// A public function that writes its parameter: converted back after the call.
// CHECK-LABEL: func.func @public_writer(%b: memref<16xf32>, %v: f32) {
func.func @public_writer(%b: memref<16xf32>, %v: f32) {
  %c0 = arith.constant 0 : index
  memref.store %v, %b[%c0] : memref<16xf32>
  func.return
}

// CHECK-LABEL: func.func @to_public_writer(%v: f32) {
// CHECK:         func.call @public_writer(%[[T:.*]], %v) : (memref<16xf32>, f32) -> ()
// CHECK-NEXT:    layout.convert %[[T]] to %{{.*}} : memref<16xf32> to memref<16xf32, #layout.tag<"W->W4w">>
// CHECK-NEXT:    memref.dealloc %[[T]] : memref<16xf32>
func.func @to_public_writer(%v: f32) {
  %m = memref.alloc() : memref<16xf32>
  layout.assign %m to #layout.tag<"W->W4w"> : memref<16xf32>
  func.call @public_writer(%m, %v) : (memref<16xf32>, f32) -> ()
  func.return
}
