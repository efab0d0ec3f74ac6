// layout-strip: every layout-typed memref becomes the plain memref of its logical shape
// (ours, and MLIR's builtin affine_map / static strided layouts), in signatures, results,
// block arguments and globals; layout.assign vanishes; layout.convert becomes memref.copy.
// A layout never changes what a program computes, so the stripped program is the reference
// the native engine checks a lowering against.
// RUN: layout-opt %s -p layout-strip | filecheck %s
// RUN: layout-opt %s -p layout-strip | filecheck %s --check-prefix=NONE
// RUN: layout-opt %s -p layout-strip | %mlir_opt --verify-each > /dev/null
// REQUIRES: mlir-opt
// NONE-NOT: {{#layout|layout\.|affine_map<|strided<}}

// CHECK: memref.global "private" @weights : memref<2x17xf32> = dense<1.000000e+00>
memref.global "private" @weights : memref<2x17xf32, #layout.tag<"NC->CN8n">> = dense<1.0>

// CHECK-LABEL: func.func @main(%x: memref<2x17x5x4xf32>, %y: memref<4x30xi64>, %z: memref<13x10xf32>) -> f32 {
// CHECK-NEXT:    %a = memref.alloc() : memref<2x17x5x4xf32>
// CHECK-NEXT:    "memref.copy"(%x, %a) : (memref<2x17x5x4xf32>, memref<2x17x5x4xf32>) -> ()
// CHECK-NEXT:    %g = memref.get_global @weights : memref<2x17xf32>
// CHECK-NEXT:    %c0 = arith.constant 0 : index
// CHECK-NEXT:    %v = memref.load %x[%c0, %c0, %c0, %c0] : memref<2x17x5x4xf32>
// CHECK-NEXT:    %r = scf.for %i = %c0 to %c0 step %c0 iter_args(%m = %a) -> (memref<2x17x5x4xf32>) {
// CHECK-NEXT:      scf.yield %m : memref<2x17x5x4xf32>
// CHECK-NEXT:    }
// CHECK-NEXT:    func.call @use(%r) : (memref<2x17x5x4xf32>) -> ()
// CHECK-NEXT:    func.return %v : f32
func.func @main(%x: memref<2x17x5x4xf32, #layout.tag<"NCHW->nChw8c">>, %y: memref<4x30xi64, strided<[40, 1], offset: 3>>,
                %z: memref<13x10xf32, affine_map<(d0, d1) -> (d1 floordiv 4, d0 floordiv 4, d1 mod 4, d0 mod 4)>>) -> f32 {
  %a = memref.alloc() : memref<2x17x5x4xf32>
  layout.assign %a to #layout.tag<"NCHW->nChw16c"> : memref<2x17x5x4xf32>
  layout.convert %x to %a : memref<2x17x5x4xf32, #layout.tag<"NCHW->nChw8c">> to memref<2x17x5x4xf32>
  %g = memref.get_global @weights : memref<2x17xf32, #layout.tag<"NC->CN8n">>
  %c0 = arith.constant 0 : index
  %v = memref.load %x[%c0, %c0, %c0, %c0] : memref<2x17x5x4xf32, #layout.tag<"NCHW->nChw8c">>
  %r = scf.for %i = %c0 to %c0 step %c0 iter_args(%m = %a) -> (memref<2x17x5x4xf32>) {
    scf.yield %m : memref<2x17x5x4xf32>
  }
  func.call @use(%r) : (memref<2x17x5x4xf32>) -> ()
  func.return %v : f32
}

// CHECK-LABEL: func.func private @use(%m: memref<2x17x5x4xf32>) {
func.func private @use(%m: memref<2x17x5x4xf32>) {
  func.return
}

// The layout.schedule hint vanishes too (the stripped program is upstream-only IR).
// CHECK-LABEL: func.func @hinted(%c: memref<4x16xf32>) {
// CHECK-NEXT:    func.return
func.func @hinted(%c: memref<4x16xf32>) {
  layout.schedule %c {tile = array<i64: 2, 16>} : memref<4x16xf32>
  func.return
}
