// A view that reads the assigned buffer's memory as something else (memref.view of its
// bytes, vector.type_cast of it whole) opens no window of its logical index space: refused
// by layout-apply, naming the view (upstream's memref.view would not even verify on a
// layout-typed source), and so by layout-lower, whose step layout-apply is.
// RUN: layout-opt %s --split-input-file -p layout-apply --verify-diagnostics | filecheck %s
// RUN: not layout-opt %s -p layout-lower 2>&1 | filecheck %s --check-prefix=LOWER

// CHECK: layout-apply: memref.view of a layout-typed memref: it reinterprets its source's bytes as elements of another type
// LOWER: invalid-view-bytes.mlir:[[# @LINE + 5]]:3: error: layout-apply: memref.view of a layout-typed memref
func.func @bytes() -> f32 {
  %c0 = arith.constant 0 : index
  %a = memref.alloc() : memref<64xi8>
  layout.assign %a to #layout.tag<"C->C16c"> : memref<64xi8>
  %v = memref.view %a[%c0][] : memref<64xi8> to memref<16xf32>
  %x = memref.load %v[%c0] : memref<16xf32>
  func.return %x : f32
}

// -----
// CHECK: layout-apply: vector.type_cast of a layout-typed memref: it makes the buffer's contiguous row-major memory one vector
func.func @whole(%a: memref<4x8xf32>) -> vector<4x8xf32> {
  %b = memref.alloc() : memref<4x8xf32>
  layout.assign %b to #layout.tag<"HW->WH"> : memref<4x8xf32>
  memref.copy %a, %b : memref<4x8xf32> to memref<4x8xf32>
  %v = vector.type_cast %b : memref<4x8xf32> to memref<vector<4x8xf32>>
  %x = memref.load %v[] : memref<vector<4x8xf32>>
  func.return %x : vector<4x8xf32>
}
