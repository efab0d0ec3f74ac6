// fuzz case issue26-1-tiled-copy-into-cyclic-map (seed 15, element i32)
// issue 26, finding 1: a memref.copy of 6390 i32 into a cyclic map (innermost d0 floordiv k) takes the tiled path and moves the wrong elements (python -m benchmarks.fuzz --replay 15)
// site: @kernel assign memref<6390xi32, #layout.partition<cyclic, dims = [0], factor = 3>>
func.func private @kernel(%A: memref<6390xi32>, %B: memref<2x4x2x4xi32>, %n: index) -> i32 {
  %c1 = arith.constant 1 : index
  %c2089 = arith.constant 2089 : index
  %alloc1 = memref.alloc() : memref<6390xi32>
  layout.assign %alloc1 to #layout.partition<cyclic, dims = [0], factor = 3> : memref<6390xi32>
  "memref.copy"(%A, %alloc1) : (memref<6390xi32>, memref<6390xi32>) -> ()
  %acc = arith.constant 0 : i32
  %p2 = arith.cmpi eq, %n, %c1 : index
  %r3 = scf.if %p2 -> (i32) {
    %v4 = affine.load %A[%n mod 3] : memref<6390xi32>
    %s5 = arith.addi %acc, %v4 : i32
    %vec6 = affine.vector_load %B[1, 2, %n mod 2, 1] : memref<2x4x2x4xi32>, vector<1xi32>
    %e7 = vector.extract %vec6[0] : i32 from vector<1xi32>
    %s8 = arith.addi %s5, %e7 : i32
    %k9 = arith.constant 3 : i32
    %w10 = arith.muli %e7, %k9 : i32
    affine.store %w10, %B[%n mod 2, 1, 0, %n mod 4] : memref<2x4x2x4xi32>
    scf.yield %s8 : i32
  } else {
    %k11 = arith.constant 7 : i32
    affine.store %k11, %B[0, 2, 0, 0] : memref<2x4x2x4xi32>
    scf.yield %acc : i32
  }
  %v12 = memref.load %alloc1[%c2089] : memref<6390xi32>
  %s13 = arith.addi %r3, %v12 : i32
  "memref.copy"(%alloc1, %A) : (memref<6390xi32>, memref<6390xi32>) -> ()
  memref.dealloc %alloc1 : memref<6390xi32>
  func.return %s13 : i32
}
func.func @main() {
  %c0 = arith.constant 0 : index
  %c6390 = arith.constant 6390 : index
  %c1 = arith.constant 1 : index
  %c3 = arith.constant 3 : index
  %c2 = arith.constant 2 : index
  %c4 = arith.constant 4 : index
  %c32 = arith.constant 32 : index
  %c8 = arith.constant 8 : index
  %alloc1 = memref.alloc() : memref<6390xi32>
  scf.for %i2 = %c0 to %c6390 step %c1 {
    %s3 = arith.muli %i2, %c1 : index
    %l4 = arith.addi %c0, %s3 : index
    %x6 = arith.muli %l4, %c3 : index
    %x5 = arith.addi %x6, %c1 : index
    %fv7 = arith.index_cast %x5 : index to i32
    memref.store %fv7, %alloc1[%i2] : memref<6390xi32>
  }
  %alloc8 = memref.alloc() : memref<2x4x2x4xi32>
  scf.for %i9 = %c0 to %c2 step %c1 {
    scf.for %i10 = %c0 to %c4 step %c1 {
      scf.for %i11 = %c0 to %c2 step %c1 {
        scf.for %i12 = %c0 to %c4 step %c1 {
          %s13 = arith.muli %i9, %c32 : index
          %l14 = arith.addi %c0, %s13 : index
          %s15 = arith.muli %i10, %c8 : index
          %l16 = arith.addi %l14, %s15 : index
          %s17 = arith.muli %i11, %c4 : index
          %l18 = arith.addi %l16, %s17 : index
          %s19 = arith.muli %i12, %c1 : index
          %l20 = arith.addi %l18, %s19 : index
          %x22 = arith.muli %l20, %c3 : index
          %x21 = arith.addi %x22, %c2 : index
          %fv23 = arith.index_cast %x21 : index to i32
          memref.store %fv23, %alloc8[%i9, %i10, %i11, %i12] : memref<2x4x2x4xi32>
        }
      }
    }
  }
  %r = func.call @kernel(%alloc1, %alloc8, %c1) : (memref<6390xi32>, memref<2x4x2x4xi32>, index) -> i32
  "vector.print"(%r) : (i32) -> ()
  scf.for %i24 = %c0 to %c6390 step %c1 {
    %s25 = arith.muli %i24, %c1 : index
    %l26 = arith.addi %c0, %s25 : index
    %p27 = memref.load %alloc1[%i24] : memref<6390xi32>
    "vector.print"(%p27) : (i32) -> ()
  }
  scf.for %i28 = %c0 to %c2 step %c1 {
    scf.for %i29 = %c0 to %c4 step %c1 {
      scf.for %i30 = %c0 to %c2 step %c1 {
        scf.for %i31 = %c0 to %c4 step %c1 {
          %s32 = arith.muli %i28, %c32 : index
          %l33 = arith.addi %c0, %s32 : index
          %s34 = arith.muli %i29, %c8 : index
          %l35 = arith.addi %l33, %s34 : index
          %s36 = arith.muli %i30, %c4 : index
          %l37 = arith.addi %l35, %s36 : index
          %s38 = arith.muli %i31, %c1 : index
          %l39 = arith.addi %l37, %s38 : index
          %p40 = memref.load %alloc8[%i28, %i29, %i30, %i31] : memref<2x4x2x4xi32>
          "vector.print"(%p40) : (i32) -> ()
        }
      }
    }
  }
  memref.dealloc %alloc1 : memref<6390xi32>
  memref.dealloc %alloc8 : memref<2x4x2x4xi32>
  func.return
}
