"memref.global"() <{sym_name = "g0", sym_visibility = "private", type = memref<4x2xi32>, initial_value = dense<[[2, 5], [8, 11], [14, 17], [20, 23]]> : tensor<4x2xi32>}> : () -> ()
func.func private @kernel(%A: memref<2x7xi32>, %B: memref<4x2xi32>, %n: index) -> i32 {
  %c0 = arith.constant 0 : index
  %c2 = arith.constant 2 : index
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  %k2_i32 = arith.constant 2 : i32
  %c3 = arith.constant 3 : index
  %c5 = arith.constant 5 : index
  %c7 = arith.constant 7 : index
  %alloc1 = memref.alloc() : memref<2x7xi32>
  "memref.copy"(%A, %alloc1) : (memref<2x7xi32>, memref<2x7xi32>) -> ()
  %acc = arith.constant 0 : i32
  %c1_3 = arith.constant 1 : index
  %x2 = arith.remui %n, %c1_3 : index
  %x4 = affine.apply affine_map<(d0) -> (d0 mod 2)>(%x2)
  %vec5 = affine.vector_load %B[%x2 mod 4, %x2 ceildiv 3] : memref<4x2xi32>, vector<2xi32>
  %e6 = vector.extract %vec5[1] : i32 from vector<2xi32>
  %s7 = arith.addi %acc, %e6 : i32
  scf.for %n9 = %c0 to %c2 step %c1 {
    scf.for %n8 = %c0 to %c4 step %c1 {
      %nv10 = memref.load %B[%n8, %n9] : memref<4x2xi32>
      %nr11 = arith.muli %nv10, %k2_i32 : i32
      memref.store %nr11, %B[%n8, %n9] : memref<4x2xi32>
    }
  }
  %r13 = affine.for %i12 = 0 to 2 step 2 iter_args(%a14 = %s7) -> (i32) {
    %c4_16 = arith.constant 4 : index
    %x15 = arith.divsi %i12, %c4_16 : index
    %c4_18 = arith.constant 4 : index
    %x17 = arith.ceildivsi %x2, %c4_18 : index
    %v19 = memref.load %B[%x15, %x17] : memref<4x2xi32>
    %s20 = arith.addi %a14, %v19 : i32
    %r22 = affine.for %i21 = 0 to 5 iter_args(%a23 = %s20) -> (i32) {
      %v24 = affine.load %alloc1[%i12 floordiv 2, %i21 floordiv 3] : memref<2x7xi32>
      %s25 = arith.addi %a23, %v24 : i32
      linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%A : memref<2x7xi32>) outs(%alloc1 : memref<2x7xi32>) {
      ^bb0(%in26: i32, %out27: i32):
        %g28 = arith.subi %in26, %out27 : i32
        %li30 = linalg.index 1 : index
        %ls31 = arith.muli %li30, %c3 : index
        %la32 = arith.addi %c1, %ls31 : index
        %iv33 = arith.index_cast %la32 : index to i32
        %g29 = arith.addi %g28, %iv33 : i32
        linalg.yield %g29 : i32
      }
      %x34 = affine.apply affine_map<(d0) -> (d0 floordiv 2)>(%x2)
      affine.yield %s25 : i32
    }
    affine.yield %r22 : i32
  }
  %alloca35 = memref.alloca() : memref<2x1xi32>
  %sv36 = memref.subview %A[%x4, 1] [2, 1] [1, 1] : memref<2x7xi32> to memref<2x1xi32, strided<[7, 1], offset: ?>>
  linalg.copy ins(%sv36 : memref<2x1xi32, strided<[7, 1], offset: ?>>) outs(%alloca35 : memref<2x1xi32>)
  %alloc37 = memref.alloc() : memref<1x7xi32>
  linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} outs(%alloc37 : memref<1x7xi32>) {
  ^bb0(%out38: i32):
    %li39 = linalg.index 0 : index
    %ls40 = arith.muli %li39, %c5 : index
    %la41 = arith.addi %c1, %ls40 : index
    %li42 = linalg.index 1 : index
    %ls43 = arith.muli %li42, %c7 : index
    %la44 = arith.addi %la41, %ls43 : index
    %iv45 = arith.index_cast %la44 : index to i32
    linalg.yield %iv45 : i32
  }
  linalg.matmul ins(%alloca35, %alloc37 : memref<2x1xi32>, memref<1x7xi32>) outs(%A : memref<2x7xi32>)
  memref.dealloc %alloc37 : memref<1x7xi32>
  memref.dealloc %alloc1 : memref<2x7xi32>
  func.return %r13 : i32
}
func.func @main() {
  %c0 = arith.constant 0 : index
  %c2 = arith.constant 2 : index
  %c1 = arith.constant 1 : index
  %c7 = arith.constant 7 : index
  %c3 = arith.constant 3 : index
  %c6 = arith.constant 6 : index
  %c4 = arith.constant 4 : index
  %alloc1 = memref.alloc() : memref<2x7xi32>
  scf.for %i2 = %c0 to %c2 step %c1 {
    scf.for %i3 = %c0 to %c7 step %c1 {
      %s4 = arith.muli %i2, %c7 : index
      %l5 = arith.addi %c0, %s4 : index
      %s6 = arith.muli %i3, %c1 : index
      %l7 = arith.addi %l5, %s6 : index
      %x9 = arith.muli %l7, %c3 : index
      %x8 = arith.addi %x9, %c1 : index
      %fv10 = arith.index_cast %x8 : index to i32
      memref.store %fv10, %alloc1[%i2, %i3] : memref<2x7xi32>
    }
  }
  %g = memref.get_global @g0 : memref<4x2xi32>
  %alloc11 = memref.alloc() : memref<2x7xi32>
  "memref.copy"(%alloc1, %alloc11) : (memref<2x7xi32>, memref<2x7xi32>) -> ()
  %r = func.call @kernel(%alloc11, %g, %c6) : (memref<2x7xi32>, memref<4x2xi32>, index) -> i32
  "memref.copy"(%alloc11, %alloc1) : (memref<2x7xi32>, memref<2x7xi32>) -> ()
  memref.dealloc %alloc11 : memref<2x7xi32>
  "vector.print"(%r) : (i32) -> ()
  scf.for %i12 = %c0 to %c2 step %c1 {
    scf.for %i13 = %c0 to %c7 step %c1 {
      %s14 = arith.muli %i12, %c7 : index
      %l15 = arith.addi %c0, %s14 : index
      %s16 = arith.muli %i13, %c1 : index
      %l17 = arith.addi %l15, %s16 : index
      %p18 = memref.load %alloc1[%i12, %i13] : memref<2x7xi32>
      "vector.print"(%p18) : (i32) -> ()
    }
  }
  scf.for %i19 = %c0 to %c4 step %c1 {
    scf.for %i20 = %c0 to %c2 step %c1 {
      %s21 = arith.muli %i19, %c2 : index
      %l22 = arith.addi %c0, %s21 : index
      %s23 = arith.muli %i20, %c1 : index
      %l24 = arith.addi %l22, %s23 : index
      %p25 = memref.load %g[%i19, %i20] : memref<4x2xi32>
      "vector.print"(%p25) : (i32) -> ()
    }
  }
  memref.dealloc %alloc1 : memref<2x7xi32>
  func.return
}
