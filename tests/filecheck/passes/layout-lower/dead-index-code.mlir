// Lowered code carries no index arithmetic it does not need: a load whose result is unused
// goes away with all of its index code.
// RUN: layout-opt %s -p layout-lower | filecheck %s

// CHECK-LABEL: func.func @unused_load(%m: memref<2x4x8xf32>, %i: index) {
// CHECK-NEXT:    func.return
func.func @unused_load(%m: memref<2x32xf32, #layout.tag<"NW->NW8w">>, %i: index) {
  %c0 = arith.constant 0 : index
  %x = memref.load %m[%c0, %i] : memref<2x32xf32, #layout.tag<"NW->NW8w">>
  func.return
}
