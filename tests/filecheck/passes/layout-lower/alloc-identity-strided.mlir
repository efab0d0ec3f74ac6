// An allocation typed with an identity builtin strided layout (row-major strides, offset 0)
// becomes a plain allocation cast to that type: upstream's LLVM lowering allocates only
// identity-layout memrefs, so the lowered module runs in mlir-runner. Its users keep the type.
// RUN: layout-opt %s -p layout-lower | filecheck %s
// RUN: layout-opt %s -p layout-lower | %mlir_opt --convert-scf-to-cf --finalize-memref-to-llvm --convert-arith-to-llvm --convert-func-to-llvm --convert-cf-to-llvm --reconcile-unrealized-casts | %mlir_runner -e main -entry-point-result=void -shared-libs=%mlir_runner_libs | filecheck %s --check-prefix=NATIVE
// REQUIRES: mlir-runner

// CHECK-LABEL: func.func @main() {
// CHECK-NEXT:    %[[M:.*]] = memref.alloc() : memref<3x4xf32>
// CHECK-NEXT:    %[[MC:.*]] = memref.cast %[[M]] : memref<3x4xf32> to memref<3x4xf32, strided<[4, 1]>>
// CHECK-NEXT:    %[[A:.*]] = memref.alloca() : memref<3x4xf32>
// CHECK-NEXT:    %[[AC:.*]] = memref.cast %[[A]] : memref<3x4xf32> to memref<3x4xf32, strided<[4, 1]>>
// CHECK:         memref.store %{{.*}}, %[[MC]][%{{.*}}, %{{.*}}] : memref<3x4xf32, strided<[4, 1]>>
// CHECK:         memref.dealloc %[[MC]] : memref<3x4xf32, strided<[4, 1]>>
// A non-identity builtin strided allocation is a layout: it becomes its physical buffer.
// CHECK:         memref.alloc() : memref<23xf32>
// CHECK-NOT:     memref.alloc
// NATIVE: 4
func.func private @printF32(f32)
func.func private @printNewline()
func.func @main() {
  %m = memref.alloc() : memref<3x4xf32, strided<[4, 1]>>
  %a = memref.alloca() : memref<3x4xf32, strided<[4, 1], offset: 0>>
  %c1 = arith.constant 1 : index
  %v = arith.constant 2.5 : f32
  %w = arith.constant 1.5 : f32
  memref.store %v, %m[%c1, %c1] : memref<3x4xf32, strided<[4, 1]>>
  memref.store %w, %a[%c1, %c1] : memref<3x4xf32, strided<[4, 1], offset: 0>>
  %x = memref.load %m[%c1, %c1] : memref<3x4xf32, strided<[4, 1]>>
  %y = memref.load %a[%c1, %c1] : memref<3x4xf32, strided<[4, 1], offset: 0>>
  %z = arith.addf %x, %y : f32
  memref.dealloc %m : memref<3x4xf32, strided<[4, 1]>>
  %s = memref.alloc() : memref<3x4xf32, strided<[8, 2]>>
  memref.dealloc %s : memref<3x4xf32, strided<[8, 2]>>
  func.call @printF32(%z) : (f32) -> ()
  func.call @printNewline() : () -> ()
  func.return
}
