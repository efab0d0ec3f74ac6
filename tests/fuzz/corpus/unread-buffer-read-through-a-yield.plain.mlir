func.func @kernel(%A: memref<3x3x9xi32>, %B: memref<3x3x9xi32>, %n: index) -> i32 {
  %c3 = arith.constant 3 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c5 = arith.constant 5 : index
  %c4 = arith.constant 4 : index
  %c6 = arith.constant 6 : index
  %c7 = arith.constant 7 : index
  %k2_i32 = arith.constant 2 : i32
  %alloc1 = memref.alloc() : memref<3x3x9xi32>
  "memref.copy"(%A, %alloc1) : (memref<3x3x9xi32>, memref<3x3x9xi32>) -> ()
  %acc = arith.constant 0 : i32
  %c3_3 = arith.constant 3 : index
  %x2 = arith.remui %n, %c3_3 : index
  %x4 = arith.remui %n, %c3 : index
  %r6 = affine.for %i5 = 2 to 5 step 3 iter_args(%a7 = %acc) -> (i32) {
    %v8 = affine.load %alloc1[%x4 mod 3, %i5 - 1, %x2 mod 3] : memref<3x3x9xi32>
    %s9 = arith.addi %a7, %v8 : i32
    affine.yield %s9 : i32
  }
  %r11 = scf.for %i10 = %c1 to %c3_3 step %c2 iter_args(%a12 = %r6) -> (i32) {
    %x13 = arith.remui %n, %c1 : index
    %x14 = arith.remui %n, %c3_3 : index
    %v15 = memref.load %A[%x13, %x14, %c1] : memref<3x3x9xi32>
    %s16 = arith.addi %a12, %v15 : i32
    %alloc17 = memref.alloc() : memref<3x3x2xi32>
    linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d1, d2)>], iterator_types = ["parallel", "parallel", "parallel"]} outs(%alloc17 : memref<3x3x2xi32>) {
    ^bb0(%out18: i32):
      %li19 = linalg.index 0 : index
      %ls20 = arith.muli %li19, %c3 : index
      %la21 = arith.addi %c1, %ls20 : index
      %li22 = linalg.index 1 : index
      %ls23 = arith.muli %li22, %c5 : index
      %la24 = arith.addi %la21, %ls23 : index
      %li25 = linalg.index 2 : index
      %ls26 = arith.muli %li25, %c4 : index
      %la27 = arith.addi %la24, %ls26 : index
      %iv28 = arith.index_cast %la27 : index to i32
      linalg.yield %iv28 : i32
    }
    %alloc29 = memref.alloc() : memref<3x2x9xi32>
    linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d1, d2)>], iterator_types = ["parallel", "parallel", "parallel"]} outs(%alloc29 : memref<3x2x9xi32>) {
    ^bb0(%out30: i32):
      %li31 = linalg.index 0 : index
      %ls32 = arith.muli %li31, %c6 : index
      %la33 = arith.addi %c1, %ls32 : index
      %li34 = linalg.index 1 : index
      %ls35 = arith.muli %li34, %c2 : index
      %la36 = arith.addi %la33, %ls35 : index
      %li37 = linalg.index 2 : index
      %ls38 = arith.muli %li37, %c6 : index
      %la39 = arith.addi %la36, %ls38 : index
      %iv40 = arith.index_cast %la39 : index to i32
      linalg.yield %iv40 : i32
    }
    linalg.batch_matmul ins(%alloc17, %alloc29 : memref<3x3x2xi32>, memref<3x2x9xi32>) outs(%alloc1 : memref<3x3x9xi32>)
    memref.dealloc %alloc17 : memref<3x3x2xi32>
    memref.dealloc %alloc29 : memref<3x2x9xi32>
    scf.yield %s16 : i32
  }
  %c6_41 = arith.constant 6 : index
  %r43 = scf.for %i42 = %c3_3 to %c6_41 step %c2 iter_args(%a44 = %r11) -> (i32) {
    %v45 = affine.load %A[%x2 floordiv 2, %x4 mod 3, %x4 ceildiv 2] : memref<3x3x9xi32>
    %s46 = arith.addi %a44, %v45 : i32
    %p47 = arith.cmpi uge, %n, %c7 : index
    scf.if %p47 {
      %x49 = arith.remui %n, %c1 : index
      %x50 = arith.remui %n, %c3 : index
      %c1_51 = arith.constant 1 : index
      %v52 = memref.load %B[%x49, %x50, %c1_51] : memref<3x3x9xi32>
      %c5_53 = arith.constant 5 : index
      %p54 = arith.cmpi slt, %i42, %c5_53 : index
      scf.if %p54 {
        %v56 = affine.load %B[2 - %x2, %x4 ceildiv 2, %x2 floordiv 2] : memref<3x3x9xi32>
      } else {
        %v57 = affine.load %alloc1[%x2 floordiv 4 + 1, %x4 floordiv 3, 3 - %x2] : memref<3x3x9xi32>
      }
    }
    scf.yield %s46 : i32
  }
  %sv58 = memref.subview %B[0, 0, 0] [3, 3, 9] [1, 1, 1] : memref<3x3x9xi32> to memref<3x3x9xi32, strided<[27, 9, 1], offset: 0>>
  %alloc59 = memref.alloc() : memref<3x3xi32>
  linalg.fill ins(%k2_i32 : i32) outs(%alloc59 : memref<3x3xi32>)
  linalg.reduce ins(%sv58 : memref<3x3x9xi32, strided<[27, 9, 1], offset: 0>>) outs(%alloc59 : memref<3x3xi32>) dimensions = [2]
    (%rin60: i32, %racc61: i32) {
      %rs62 = arith.addi %rin60, %racc61 : i32
      linalg.yield %rs62 : i32
    }
  linalg.broadcast ins(%alloc59 : memref<3x3xi32>) outs(%A : memref<3x3x9xi32>) dimensions = [2]
  memref.dealloc %alloc59 : memref<3x3xi32>
  memref.dealloc %alloc1 : memref<3x3x9xi32>
  func.return %r43 : i32
}
func.func @helper(%X: memref<3x3x9xi32>, %n: index) -> i32 {
  %c4 = arith.constant 4 : index
  %c0 = arith.constant 0 : index
  %c9 = arith.constant 9 : index
  %c1 = arith.constant 1 : index
  %c3 = arith.constant 3 : index
  %k2_i32 = arith.constant 2 : i32
  %k0_i32 = arith.constant 0 : i32
  %acc = arith.constant 0 : i32
  %x1 = arith.remui %n, %c4 : index
  scf.for %n4 = %c0 to %c9 step %c1 {
    scf.for %n3 = %c0 to %c3 step %c1 {
      scf.for %n2 = %c0 to %c3 step %c1 {
        %nv5 = memref.load %X[%n2, %n3, %n4] : memref<3x3x9xi32>
        %nr6 = arith.muli %nv5, %k2_i32 : i32
        memref.store %nr6, %X[%n2, %n3, %n4] : memref<3x3x9xi32>
      }
    }
  }
  %vec7 = vector.broadcast %k0_i32 : i32 to vector<3xi32>
  affine.vector_store %vec7, %X[2, %n mod 3, %x1 ceildiv 3] : memref<3x3x9xi32>, vector<3xi32>
  func.return %acc : i32
}
func.func @main() {
  %c0 = arith.constant 0 : index
  %c3 = arith.constant 3 : index
  %c1 = arith.constant 1 : index
  %c9 = arith.constant 9 : index
  %c27 = arith.constant 27 : index
  %c2 = arith.constant 2 : index
  %alloca1 = memref.alloca() : memref<3x3x9xi32>
  scf.for %i2 = %c0 to %c3 step %c1 {
    scf.for %i3 = %c0 to %c3 step %c1 {
      scf.for %i4 = %c0 to %c9 step %c1 {
        %s5 = arith.muli %i2, %c27 : index
        %l6 = arith.addi %c0, %s5 : index
        %s7 = arith.muli %i3, %c9 : index
        %l8 = arith.addi %l6, %s7 : index
        %s9 = arith.muli %i4, %c1 : index
        %l10 = arith.addi %l8, %s9 : index
        %x12 = arith.muli %l10, %c3 : index
        %x11 = arith.addi %x12, %c1 : index
        %fv13 = arith.index_cast %x11 : index to i32
        memref.store %fv13, %alloca1[%i2, %i3, %i4] : memref<3x3x9xi32>
      }
    }
  }
  %alloca14 = memref.alloca() : memref<3x3x9xi32>
  scf.for %i15 = %c0 to %c3 step %c1 {
    scf.for %i16 = %c0 to %c3 step %c1 {
      scf.for %i17 = %c0 to %c9 step %c1 {
        %s18 = arith.muli %i15, %c27 : index
        %l19 = arith.addi %c0, %s18 : index
        %s20 = arith.muli %i16, %c9 : index
        %l21 = arith.addi %l19, %s20 : index
        %s22 = arith.muli %i17, %c1 : index
        %l23 = arith.addi %l21, %s22 : index
        %x25 = arith.muli %l23, %c3 : index
        %x24 = arith.addi %x25, %c2 : index
        %fv26 = arith.index_cast %x24 : index to i32
        memref.store %fv26, %alloca14[%i15, %i16, %i17] : memref<3x3x9xi32>
      }
    }
  }
  %r = func.call @kernel(%alloca1, %alloca14, %c3) : (memref<3x3x9xi32>, memref<3x3x9xi32>, index) -> i32
  "vector.print"(%r) : (i32) -> ()
  scf.for %i27 = %c0 to %c3 step %c1 {
    scf.for %i28 = %c0 to %c3 step %c1 {
      scf.for %i29 = %c0 to %c9 step %c1 {
        %s30 = arith.muli %i27, %c27 : index
        %l31 = arith.addi %c0, %s30 : index
        %s32 = arith.muli %i28, %c9 : index
        %l33 = arith.addi %l31, %s32 : index
        %s34 = arith.muli %i29, %c1 : index
        %l35 = arith.addi %l33, %s34 : index
        %p36 = memref.load %alloca1[%i27, %i28, %i29] : memref<3x3x9xi32>
        "vector.print"(%p36) : (i32) -> ()
      }
    }
  }
  scf.for %i37 = %c0 to %c3 step %c1 {
    scf.for %i38 = %c0 to %c3 step %c1 {
      scf.for %i39 = %c0 to %c9 step %c1 {
        %s40 = arith.muli %i37, %c27 : index
        %l41 = arith.addi %c0, %s40 : index
        %s42 = arith.muli %i38, %c9 : index
        %l43 = arith.addi %l41, %s42 : index
        %s44 = arith.muli %i39, %c1 : index
        %l45 = arith.addi %l43, %s44 : index
        %p46 = memref.load %alloca14[%i37, %i38, %i39] : memref<3x3x9xi32>
        "vector.print"(%p46) : (i32) -> ()
      }
    }
  }
  func.return
}
