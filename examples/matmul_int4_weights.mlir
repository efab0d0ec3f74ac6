// C[M,N] += A[M,K] * B[K,N] with int8 activations and 4-bit weights. One line stores B as
// "KN->NK2k" with pack = i8: each column of B is a run of 2-deep k blocks, and each block's
// two int4 values share one byte (lane k mod 2 at bits 4·(k mod 2), LSB-first), so the
// 16x8 weight matrix takes 64 bytes. Loads become a shift, a truncation to i4 and the
// sign extension the kernel itself asks for.
//   layout-run examples/matmul_int4_weights.mlir --check
func.func @main(%a: memref<4x16xi8>, %b: memref<16x8xi4>, %c: memref<4x8xi32>) {
  layout.assign %b to #layout.tag<"KN->NK2k", pack = i8> : memref<16x8xi4>
  affine.for %i = 0 to 4 {
    affine.for %j = 0 to 8 {
      affine.for %k = 0 to 16 {
        %x = affine.load %a[%i, %k] : memref<4x16xi8>
        %y = affine.load %b[%k, %j] : memref<16x8xi4>
        %z = affine.load %c[%i, %j] : memref<4x8xi32>
        %xw = arith.extsi %x : i8 to i32
        %yw = arith.extsi %y : i4 to i32
        %p = arith.muli %xw, %yw : i32
        %s = arith.addi %z, %p : i32
        affine.store %s, %c[%i, %j] : memref<4x8xi32>
      }
    }
  }
  func.return
}
