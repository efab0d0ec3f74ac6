// C[M,N] += A[M,K] * B[K,N] with B stored blocked as "KN->NK4k16n": 16-wide column
// panels of B, each a run of 4-deep k blocks, as a GEMM micro-kernel reads it.
//   layout-run examples/matmul_blocked.mlir --check
func.func @main(%a: memref<8x32xf32>, %b: memref<32x48xf32>, %c: memref<8x48xf32>) {
  layout.assign %b to #layout.tag<"KN->NK4k16n"> : memref<32x48xf32>
  affine.for %i = 0 to 8 {
    affine.for %j = 0 to 48 {
      affine.for %k = 0 to 32 {
        %x = affine.load %a[%i, %k] : memref<8x32xf32>
        %y = affine.load %b[%k, %j] : memref<32x48xf32>
        %z = affine.load %c[%i, %j] : memref<8x48xf32>
        %p = arith.mulf %x, %y : f32
        %s = arith.addf %z, %p : f32
        affine.store %s, %c[%i, %j] : memref<8x48xf32>
      }
    }
  }
  func.return
}
