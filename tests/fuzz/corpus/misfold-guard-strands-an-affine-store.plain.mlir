func.func @kernel(%A: memref<5x4xf64>, %B: memref<5x?xf64>, %n: index) -> f64 {
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %k2p0_f64 = arith.constant 2.0 : f64
  %c13 = arith.constant 13 : index
  %k1p0_f64 = arith.constant 1.0 : f64
  %k0p5_f64 = arith.constant 0.5 : f64
  %km1p0_f64 = arith.constant -1.0 : f64
  %km3p0_f64 = arith.constant -3.0 : f64
  %d1 = memref.dim %B, %c1 : memref<5x?xf64>
  %alloc2 = memref.alloc() : memref<5x4xf64>
  "memref.copy"(%A, %alloc2) : (memref<5x4xf64>, memref<5x4xf64>) -> ()
  %acc = arith.constant 0.0 : f64
  %c3_4 = arith.constant 3 : index
  %x3 = arith.remui %n, %c3_4 : index
  %x5 = arith.remui %n, %c2 : index
  %r7 = affine.for %i6 = 0 to 2 step 1 iter_args(%a8 = %acc) -> (f64) {
    affine.store %k2p0_f64, %alloc2[%i6 floordiv 2, %i6 + 1] : memref<5x4xf64>
    %alloca9 = memref.alloca() : memref<5x4xf64>
    linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} outs(%alloca9 : memref<5x4xf64>) {
    ^bb0(%out10: f64):
      %li11 = linalg.index 0 : index
      %ls12 = arith.muli %li11, %c1 : index
      %la13 = arith.addi %c1, %ls12 : index
      %li14 = linalg.index 1 : index
      %ls15 = arith.muli %li14, %c1 : index
      %la16 = arith.addi %la13, %ls15 : index
      %ir17 = arith.remui %la16, %c13 : index
      %ii18 = arith.index_cast %ir17 : index to i32
      %iv19 = arith.sitofp %ii18 : i32 to f64
      linalg.yield %iv19 : f64
    }
    %alloc20 = memref.alloc() : memref<4x4xf64>
    linalg.fill ins(%k1p0_f64 : f64) outs(%alloc20 : memref<4x4xf64>)
    linalg.matmul ins(%alloca9, %alloc20 : memref<5x4xf64>, memref<4x4xf64>) outs(%B : memref<5x?xf64>)
    memref.dealloc %alloc20 : memref<4x4xf64>
    %x21 = affine.apply affine_map<(d0) -> (d0 mod 4)>(%x5)
    %c2_23 = arith.constant 2 : index
    %x22 = arith.addi %x5, %c2_23 : index
    %v24 = memref.load %alloc2[%x21, %x22] : memref<5x4xf64>
    %s25 = arith.addf %a8, %v24 : f64
    affine.yield %s25 : f64
  }
  %x26 = affine.apply affine_map<(d0) -> (d0 mod 4)>(%x5)
  %x27 = arith.addi %c2, %x5 : index
  memref.store %k0p5_f64, %B[%x26, %x27] : memref<5x?xf64>
  %p28 = arith.cmpi eq, %x3, %c2 : index
  %r29 = scf.if %p28 -> (f64) {
    %v30 = memref.load %B[%x26, %x27] : memref<5x?xf64>
    %s31 = arith.addf %r7, %v30 : f64
    %c1_32 = arith.constant 1 : index
    %c2_33 = arith.constant 2 : index
    %r35 = scf.for %i34 = %c1_32 to %d1 step %c2_33 iter_args(%a36 = %s31) -> (f64) {
      %w37 = arith.mulf %v30, %km1p0_f64 : f64
      %x38 = affine.apply affine_map<(d0) -> (d0 mod 3)>(%x26)
      %x39 = affine.apply affine_map<(d0) -> (d0 mod 4)>(%x5)
      memref.store %w37, %alloc2[%x38, %x39] : memref<5x4xf64>
      %p40 = arith.cmpi eq, %x5, %c1_32 : index
      %r41 = scf.if %p40 -> (f64) {
        %k42 = arith.constant 0.25 : f64
        %w43 = arith.mulf %v30, %k42 : f64
        affine.store %w43, %A[2 * %x38, %x38 + %x26] : memref<5x4xf64>
        scf.yield %a36 : f64
      } else {
        %k44 = arith.constant -3.0 : f64
        memref.store %k44, %alloc2[%x26, %x27] : memref<5x4xf64>
        scf.yield %a36 : f64
      }
      scf.yield %r41 : f64
    }
    scf.yield %r35 : f64
  } else {
    memref.store %km3p0_f64, %alloc2[%x26, %x27] : memref<5x4xf64>
    scf.yield %r7 : f64
  }
  memref.dealloc %alloc2 : memref<5x4xf64>
  func.return %r29 : f64
}
func.func @main() {
  %c0 = arith.constant 0 : index
  %c5 = arith.constant 5 : index
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  %c3 = arith.constant 3 : index
  %c37 = arith.constant 37 : index
  %k0p25_f64 = arith.constant 0.25 : f64
  %k2p0_f64 = arith.constant 2.0 : f64
  %c2 = arith.constant 2 : index
  %c7 = arith.constant 7 : index
  %alloc1 = memref.alloc() : memref<5x4xf64>
  scf.for %i2 = %c0 to %c5 step %c1 {
    scf.for %i3 = %c0 to %c4 step %c1 {
      %s4 = arith.muli %i2, %c4 : index
      %l5 = arith.addi %c0, %s4 : index
      %s6 = arith.muli %i3, %c1 : index
      %l7 = arith.addi %l5, %s6 : index
      %x9 = arith.muli %l7, %c3 : index
      %x8 = arith.addi %x9, %c1 : index
      %x11 = arith.remui %x8, %c37 : index
      %x12 = arith.index_cast %x11 : index to i32
      %x13 = arith.sitofp %x12 : i32 to f64
      %x14 = arith.mulf %x13, %k0p25_f64 : f64
      %fv10 = arith.subf %x14, %k2p0_f64 : f64
      memref.store %fv10, %alloc1[%i2, %i3] : memref<5x4xf64>
    }
  }
  %alloc15 = memref.alloc() : memref<5x4xf64>
  scf.for %i16 = %c0 to %c5 step %c1 {
    scf.for %i17 = %c0 to %c4 step %c1 {
      %s18 = arith.muli %i16, %c4 : index
      %l19 = arith.addi %c0, %s18 : index
      %s20 = arith.muli %i17, %c1 : index
      %l21 = arith.addi %l19, %s20 : index
      %x23 = arith.muli %l21, %c3 : index
      %x22 = arith.addi %x23, %c2 : index
      %x25 = arith.remui %x22, %c37 : index
      %x26 = arith.index_cast %x25 : index to i32
      %x27 = arith.sitofp %x26 : i32 to f64
      %x28 = arith.mulf %x27, %k0p25_f64 : f64
      %fv24 = arith.subf %x28, %k2p0_f64 : f64
      memref.store %fv24, %alloc15[%i16, %i17] : memref<5x4xf64>
    }
  }
  %cast29 = "memref.cast"(%alloc15) : (memref<5x4xf64>) -> memref<5x?xf64>
  %r = func.call @kernel(%alloc1, %cast29, %c7) : (memref<5x4xf64>, memref<5x?xf64>, index) -> f64
  "vector.print"(%r) : (f64) -> ()
  scf.for %i30 = %c0 to %c5 step %c1 {
    scf.for %i31 = %c0 to %c4 step %c1 {
      %s32 = arith.muli %i30, %c4 : index
      %l33 = arith.addi %c0, %s32 : index
      %s34 = arith.muli %i31, %c1 : index
      %l35 = arith.addi %l33, %s34 : index
      %p36 = memref.load %alloc1[%i30, %i31] : memref<5x4xf64>
      "vector.print"(%p36) : (f64) -> ()
    }
  }
  scf.for %i37 = %c0 to %c5 step %c1 {
    scf.for %i38 = %c0 to %c4 step %c1 {
      %s39 = arith.muli %i37, %c4 : index
      %l40 = arith.addi %c0, %s39 : index
      %s41 = arith.muli %i38, %c1 : index
      %l42 = arith.addi %l40, %s41 : index
      %p43 = memref.load %alloc15[%i37, %i38] : memref<5x4xf64>
      "vector.print"(%p43) : (f64) -> ()
    }
  }
  memref.dealloc %alloc1 : memref<5x4xf64>
  memref.dealloc %alloc15 : memref<5x4xf64>
  func.return
}
