// fuzz case seed-3642 (seed 3642, element i2)
// seed 3642: unproven access [arith] layout-lower: translation validation: memref.load at <input>:21:3 is not proven: not proven symbolically (the layout gives d2, the code (d1 floordiv 2)); no counterexample among 4096 sampled points  reproduce: python -m benchmarks.fuzz --replay 3642
// site: @kernel assign memref<4x?x?xi2, #layout.tag<"Eoj -> jEo7E", pack = i64, bit_order = "lsb">>
// site: @kernel type memref<8x3xi2, #layout.map<affine_map<(d0, d1) -> ((d0 * 4 + d1) floordiv 3, (d0 * 4 + d1) mod 3)>, shape = [11, 3]>>
// site: @main type memref<8x3xi2, #layout.map<affine_map<(d0, d1) -> ((d0 * 4 + d1) floordiv 3, (d0 * 4 + d1) mod 3)>, shape = [11, 3]>>
"memref.global"() <{sym_name = "g0", sym_visibility = "private", constant, type = memref<8x3xi2, #layout.map<affine_map<(d0, d1) -> ((d0 * 4 + d1) floordiv 3, (d0 * 4 + d1) mod 3)>, shape = [11, 3]>>, initial_value = dense<[[-2, 1, 0], [-1, -2, 1], [0, -1, -2], [1, 0, -1], [-2, 1, 0], [-1, -2, 1], [0, -1, -2], [1, 0, -1]]> : tensor<8x3xi2>}> : () -> ()
func.func private @kernel(%A: memref<4x?x?xi2>, %B: memref<8x3xi2, #layout.map<affine_map<(d0, d1) -> ((d0 * 4 + d1) floordiv 3, (d0 * 4 + d1) mod 3)>, shape = [11, 3]>>, %n: index) -> i2 {
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c4 = arith.constant 4 : index
  %c8 = arith.constant 8 : index
  %c0 = arith.constant 0 : index
  %d1 = memref.dim %A, %c1 : memref<4x?x?xi2>
  %d2 = memref.dim %A, %c2 : memref<4x?x?xi2>
  %alloc3 = memref.alloc(%d1, %d2) : memref<4x?x?xi2>
  "memref.copy"(%A, %alloc3) : (memref<4x?x?xi2>, memref<4x?x?xi2>) -> ()
  %acc = arith.constant 0 : i2
  %c0_4 = arith.constant 0 : index
  %x5 = arith.remsi %n, %c4 : index
  %x6 = affine.apply affine_map<(d0) -> (d0 mod 4)>(%n)
  %v7 = memref.load %A[%c0_4, %x5, %x6] : memref<4x?x?xi2>
  %s8 = arith.addi %acc, %v7 : i2
  %x9 = affine.apply affine_map<(d0) -> (d0 ceildiv 3)>(%x6)
  %x10 = arith.muli %c2, %x5 : index
  %x11 = arith.divui %x5, %c2 : index
  %v12 = memref.load %A[%x9, %x10, %x11] : memref<4x?x?xi2>
  %s13 = arith.addi %s8, %v12 : i2
  %c1_14 = arith.constant 1 : index
  %r16 = scf.for %i15 = %c0 to %c8 step %c1_14 iter_args(%a17 = %s13) -> (i2) {
    %k18 = arith.constant -1 : i2
    %w19 = arith.muli %v12, %k18 : i2
    affine.store %w19, %A[%x5 floordiv 2, %n mod 3, %x10 ceildiv 2] : memref<4x?x?xi2>
    %c2_21 = arith.constant 2 : index
    %x20 = arith.muli %x11, %c2_21 : index
    scf.yield %a17 : i2
  }
  %x22 = affine.apply affine_map<(d0) -> (d0 ceildiv 3)>(%x5)
  %x23 = affine.apply affine_map<(d0) -> (d0 ceildiv 3)>(%x10)
  %v24 = memref.load %B[%x22, %x23] : memref<8x3xi2, #layout.map<affine_map<(d0, d1) -> ((d0 * 4 + d1) floordiv 3, (d0 * 4 + d1) mod 3)>, shape = [11, 3]>>
  %s25 = arith.addi %r16, %v24 : i2
  %x26 = affine.apply affine_map<(d0) -> (d0 ceildiv 3)>(%x6)
  %c2_28 = arith.constant 2 : index
  %x27 = arith.muli %c2_28, %x5 : index
  %x29 = arith.divui %x5, %c2 : index
  %v30 = memref.load %alloc3[%x26, %x27, %x29] : memref<4x?x?xi2>
  %s31 = arith.addi %s25, %v30 : i2
  layout.assign %A to #layout.tag<"Eoj -> jEo7E", pack = i64, bit_order = "lsb"> : memref<4x?x?xi2>
  "memref.copy"(%alloc3, %A) : (memref<4x?x?xi2>, memref<4x?x?xi2>) -> ()
  memref.dealloc %alloc3 : memref<4x?x?xi2>
  func.return %s31 : i2
}
func.func @main() {
  %c0 = arith.constant 0 : index
  %c4 = arith.constant 4 : index
  %c1 = arith.constant 1 : index
  %c7 = arith.constant 7 : index
  %c28 = arith.constant 28 : index
  %c3 = arith.constant 3 : index
  %c8 = arith.constant 8 : index
  %alloc1 = memref.alloc() : memref<4x7x4xi2>
  scf.for %i2 = %c0 to %c4 step %c1 {
    scf.for %i3 = %c0 to %c7 step %c1 {
      scf.for %i4 = %c0 to %c4 step %c1 {
        %s5 = arith.muli %i2, %c28 : index
        %l6 = arith.addi %c0, %s5 : index
        %s7 = arith.muli %i3, %c4 : index
        %l8 = arith.addi %l6, %s7 : index
        %s9 = arith.muli %i4, %c1 : index
        %l10 = arith.addi %l8, %s9 : index
        %x12 = arith.muli %l10, %c3 : index
        %x11 = arith.addi %x12, %c1 : index
        %fv13 = arith.index_cast %x11 : index to i2
        memref.store %fv13, %alloc1[%i2, %i3, %i4] : memref<4x7x4xi2>
      }
    }
  }
  %g = memref.get_global @g0 : memref<8x3xi2, #layout.map<affine_map<(d0, d1) -> ((d0 * 4 + d1) floordiv 3, (d0 * 4 + d1) mod 3)>, shape = [11, 3]>>
  %cast14 = "memref.cast"(%alloc1) : (memref<4x7x4xi2>) -> memref<4x?x?xi2>
  %r = func.call @kernel(%cast14, %g, %c0) : (memref<4x?x?xi2>, memref<8x3xi2, #layout.map<affine_map<(d0, d1) -> ((d0 * 4 + d1) floordiv 3, (d0 * 4 + d1) mod 3)>, shape = [11, 3]>>, index) -> i2
  "vector.print"(%r) : (i2) -> ()
  scf.for %i15 = %c0 to %c4 step %c1 {
    scf.for %i16 = %c0 to %c7 step %c1 {
      scf.for %i17 = %c0 to %c4 step %c1 {
        %s18 = arith.muli %i15, %c28 : index
        %l19 = arith.addi %c0, %s18 : index
        %s20 = arith.muli %i16, %c4 : index
        %l21 = arith.addi %l19, %s20 : index
        %s22 = arith.muli %i17, %c1 : index
        %l23 = arith.addi %l21, %s22 : index
        %p24 = memref.load %alloc1[%i15, %i16, %i17] : memref<4x7x4xi2>
        "vector.print"(%p24) : (i2) -> ()
      }
    }
  }
  scf.for %i25 = %c0 to %c8 step %c1 {
    scf.for %i26 = %c0 to %c3 step %c1 {
      %s27 = arith.muli %i25, %c3 : index
      %l28 = arith.addi %c0, %s27 : index
      %s29 = arith.muli %i26, %c1 : index
      %l30 = arith.addi %l28, %s29 : index
      %p31 = memref.load %g[%i25, %i26] : memref<8x3xi2, #layout.map<affine_map<(d0, d1) -> ((d0 * 4 + d1) floordiv 3, (d0 * 4 + d1) mod 3)>, shape = [11, 3]>>
      "vector.print"(%p31) : (i2) -> ()
    }
  }
  memref.dealloc %alloc1 : memref<4x7x4xi2>
  func.return
}
