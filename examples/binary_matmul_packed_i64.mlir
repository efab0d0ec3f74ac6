// A binary (XNOR-popcount) matmul, out[i, j] = #{k : a[i, k] == b[j, k]}, written element by
// element on logical i1 matrices. The K dim of both operands is packed 64 bits to an i64
// word; K = 100 leaves a partial second word whose 28 pad lanes must not count (they are
// equal in both operands, so an xnor over them would).
//   layout-run examples/binary_matmul_packed_i64.mlir --check -p layout-schedule,layout-lower
// layout-schedule turns the k loop into a loop over words: xor, not, math.ctpop per i64.
func.func @main(%a: memref<5x100xi1>, %b: memref<3x100xi1>, %out: memref<5x3xi32>) {
  layout.assign %a to #layout.tag<"MK->MK64k", pack = i64> : memref<5x100xi1>
  layout.assign %b to #layout.tag<"NK->NK64k", pack = i64> : memref<3x100xi1>
  %zero = arith.constant 0 : i32
  affine.for %i = 0 to 5 {
    affine.for %j = 0 to 3 {
      affine.store %zero, %out[%i, %j] : memref<5x3xi32>
      affine.for %k = 0 to 100 {
        %x = affine.load %a[%i, %k] : memref<5x100xi1>
        %y = affine.load %b[%j, %k] : memref<3x100xi1>
        %acc = affine.load %out[%i, %j] : memref<5x3xi32>
        %same = arith.cmpi eq, %x, %y : i1
        %one = arith.extui %same : i1 to i32
        %sum = arith.addi %acc, %one : i32
        affine.store %sum, %out[%i, %j] : memref<5x3xi32>
      }
    }
  }
  func.return
}
