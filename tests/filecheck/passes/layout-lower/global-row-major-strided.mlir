// A global written with row-major strides (`strided<[2, 1]>` on 4x2, offset 0) has no layout
// to heterolayout, but upstream's LLVM lowering takes only globals with the identity layout
// (finalize-memref-to-llvm leaves such a memref.global behind, and mlir-runner refuses it:
// fuzz seed 407654). layout-lower gives the global the identity layout and casts each
// get_global back to the type its users take; the lowered module then runs under stock
// upstream and prints what the program prints before lowering.
// RUN: layout-opt %s -p layout-lower | filecheck %s --check-prefix=IR
// RUN: layout-run %s --engine interp | filecheck %s
// RUN: layout-opt %s -p layout-lower | %mlir_opt --convert-linalg-to-loops --convert-vector-to-scf --lower-affine --convert-scf-to-cf --expand-strided-metadata --lower-affine --arith-expand --convert-math-to-llvm --convert-math-to-libm --convert-vector-to-llvm --convert-ub-to-llvm --finalize-memref-to-llvm --convert-arith-to-llvm --convert-index-to-llvm --convert-func-to-llvm --convert-cf-to-llvm --reconcile-unrealized-casts | %mlir_runner -e main -entry-point-result=void -shared-libs=%mlir_runner_libs | filecheck %s
// REQUIRES: mlir-runner

// IR: memref.global "private" @g : memref<4x2xi32> = dense<{{\[\[}}2, 5], [8, 11], [14, 17], [20, 23]]>
// IR: %[[G:.*]] = memref.get_global @g : memref<4x2xi32>
// IR: memref.cast %[[G]] : memref<4x2xi32> to memref<4x2xi32, strided<[2, 1]>>
// CHECK: 17
memref.global "private" @g : memref<4x2xi32, strided<[2, 1]>> = dense<[[2, 5], [8, 11], [14, 17], [20, 23]]>
func.func @main() {
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %g = memref.get_global @g : memref<4x2xi32, strided<[2, 1]>>
  %v = memref.load %g[%c2, %c1] : memref<4x2xi32, strided<[2, 1]>>
  vector.print %v : i32
  func.return
}
