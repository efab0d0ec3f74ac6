// A buffer with a '?' dim: its contiguous runs are known only at run time, so layout-schedule
// does not vectorize along it, and says so; it failed with the Layout model's "call
// specialize(shape) first" (found by the fuzzer, seed 105016). It still walks the buffer in
// memory order (W outer), and layout-lower lowers the result.
// RUN: layout-opt -v %s -p layout-schedule -o %t 2>&1 | filecheck %s
// RUN: filecheck %s --input-file %t --check-prefix=IR
// RUN: layout-opt %s -p 'layout-schedule,layout-lower{validate=true}' 2>&1 | filecheck %s --check-prefix=LOWER

// CHECK: remark: layout-schedule: @dynamic: nest %i: not vectorized: the leading buffer has a dynamic shape
// CHECK: remark: layout-schedule: @dynamic: nest %i: scheduled: loops (%j/1, %i/1) around the tile
// IR-LABEL: func.func @dynamic(
// IR:         affine.for %j = 0 to 4 {
// IR-NEXT:      affine.for %i = 0 to 4 {
// IR-NEXT:        affine.store %v, %a[%i, %j] : memref<4x?xf32, #layout.tag<"HW->WH">>
// LOWER: layout-lower: translation validation: 1 of 1 accesses proven
func.func @dynamic(%n: index, %v: f32) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  %a = memref.alloc(%n) : memref<4x?xf32, #layout.tag<"HW->WH">>
  scf.for %i = %c0 to %c4 step %c1 {
    scf.for %j = %c0 to %c4 step %c1 {
      memref.store %v, %a[%i, %j] : memref<4x?xf32, #layout.tag<"HW->WH">>
    }
  }
  memref.dealloc %a : memref<4x?xf32, #layout.tag<"HW->WH">>
  func.return
}
