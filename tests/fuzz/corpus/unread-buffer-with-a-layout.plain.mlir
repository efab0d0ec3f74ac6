func.func @kernel(%A: memref<7xi2>, %B: memref<10xi2>, %n: index) -> i2 {
  %k1_i2 = arith.constant 1 : i2
  %c8 = arith.constant 8 : index
  %c5 = arith.constant 5 : index
  %alloc1 = memref.alloc() : memref<7xi2>
  "memref.copy"(%A, %alloc1) : (memref<7xi2>, memref<7xi2>) -> ()
  %acc = arith.constant 0 : i2
  %c4_2 = arith.constant 4 : index
  %c0_3 = arith.constant 0 : index
  %c3_4 = arith.constant 3 : index
  %r6 = scf.for %i5 = %c0_3 to %c4_2 step %c3_4 iter_args(%a7 = %acc) -> (i2) {
    affine.store %k1_i2, %alloc1[%n mod 3] : memref<7xi2>
    %r9 = scf.for %i8 = %c5 to %c8 step %c3_4 iter_args(%a10 = %a7) -> (i2) {
      %k11 = arith.constant -1 : i2
      affine.store %k11, %A[%n mod 3] : memref<7xi2>
      scf.yield %a10 : i2
    }
    scf.yield %r9 : i2
  }
  %c9_13 = arith.constant 9 : index
  %x12 = arith.remsi %n, %c9_13 : index
  %v14 = memref.load %B[%x12] : memref<10xi2>
  %s15 = arith.addi %r6, %v14 : i2
  memref.dealloc %alloc1 : memref<7xi2>
  func.return %s15 : i2
}
func.func @main() {
  %c0 = arith.constant 0 : index
  %c7 = arith.constant 7 : index
  %c1 = arith.constant 1 : index
  %c3 = arith.constant 3 : index
  %c10 = arith.constant 10 : index
  %c2 = arith.constant 2 : index
  %alloc1 = memref.alloc() : memref<7xi2>
  scf.for %i2 = %c0 to %c7 step %c1 {
    %s3 = arith.muli %i2, %c1 : index
    %l4 = arith.addi %c0, %s3 : index
    %x6 = arith.muli %l4, %c3 : index
    %x5 = arith.addi %x6, %c1 : index
    %fv7 = arith.index_cast %x5 : index to i2
    memref.store %fv7, %alloc1[%i2] : memref<7xi2>
  }
  %alloc8 = memref.alloc() : memref<10xi2>
  scf.for %i9 = %c0 to %c10 step %c1 {
    %s10 = arith.muli %i9, %c1 : index
    %l11 = arith.addi %c0, %s10 : index
    %x13 = arith.muli %l11, %c3 : index
    %x12 = arith.addi %x13, %c2 : index
    %fv14 = arith.index_cast %x12 : index to i2
    memref.store %fv14, %alloc8[%i9] : memref<10xi2>
  }
  %r = func.call @kernel(%alloc1, %alloc8, %c7) : (memref<7xi2>, memref<10xi2>, index) -> i2
  "vector.print"(%r) : (i2) -> ()
  scf.for %i15 = %c0 to %c7 step %c1 {
    %s16 = arith.muli %i15, %c1 : index
    %l17 = arith.addi %c0, %s16 : index
    %p18 = memref.load %alloc1[%i15] : memref<7xi2>
    "vector.print"(%p18) : (i2) -> ()
  }
  scf.for %i19 = %c0 to %c10 step %c1 {
    %s20 = arith.muli %i19, %c1 : index
    %l21 = arith.addi %c0, %s20 : index
    %p22 = memref.load %alloc8[%i19] : memref<10xi2>
    "vector.print"(%p22) : (i2) -> ()
  }
  memref.dealloc %alloc1 : memref<7xi2>
  memref.dealloc %alloc8 : memref<10xi2>
  func.return
}
