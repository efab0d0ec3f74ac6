func.func private @kernel(%A: memref<10xf32>, %B: memref<9x3xf32>, %n: index) -> f32 {
  %c9 = arith.constant 9 : index
  %c0 = arith.constant 0 : index
  %c10 = arith.constant 10 : index
  %c1 = arith.constant 1 : index
  %k0p5_f32 = arith.constant 0.5 : f32
  %k3_i32 = arith.constant 3 : i32
  %acc = arith.constant 0.0 : f32
  %x1 = arith.remui %n, %c9 : index
  scf.for %n2 = %c0 to %c10 step %c1 {
    %nv3 = memref.load %A[%n2] : memref<10xf32>
    %nr4 = arith.mulf %nv3, %k0p5_f32 : f32
    memref.store %nr4, %A[%n2] : memref<10xf32>
  }
  affine.for %n5 = 0 to 9 {
    affine.for %n6 = 0 to 3 {
      %nv7 = affine.load %B[%n5, %n6] : memref<9x3xf32>
      %nr8 = math.fpowi %nv7, %k3_i32 : f32, i32
      affine.store %nr8, %B[%n5, %n6] : memref<9x3xf32>
    }
  }
  %k10 = arith.constant 7.0 : f32
  %vec9 = vector.broadcast %k10 : f32 to vector<1xf32>
  affine.vector_store %vec9, %A[%x1] : memref<10xf32>, vector<1xf32>
  %c7_11 = arith.constant 7 : index
  %p12 = arith.cmpi sgt, %x1, %c7_11 : index
  %r13 = scf.if %p12 -> (f32) {
    %k14 = arith.constant -3.0 : f32
    %x15 = affine.apply affine_map<(d0) -> (d0 floordiv 2)>(%x1)
    %x16 = affine.apply affine_map<(d0) -> (d0 floordiv 3)>(%x1)
    memref.store %k14, %B[%x15, %x16] : memref<9x3xf32>
    scf.yield %acc : f32
  } else {
    %x17 = affine.apply affine_map<(d0) -> (d0 floordiv 2)>(%x1)
    %v18 = memref.load %A[%x17] : memref<10xf32>
    %s19 = arith.addf %acc, %v18 : f32
    scf.yield %s19 : f32
  }
  func.return %r13 : f32
}
func.func @main() {
  %c0 = arith.constant 0 : index
  %c10 = arith.constant 10 : index
  %c1 = arith.constant 1 : index
  %c3 = arith.constant 3 : index
  %c37 = arith.constant 37 : index
  %k0p25_f32 = arith.constant 0.25 : f32
  %k2p0_f32 = arith.constant 2.0 : f32
  %c9 = arith.constant 9 : index
  %c2 = arith.constant 2 : index
  %alloc1 = memref.alloc() : memref<10xf32>
  scf.for %i2 = %c0 to %c10 step %c1 {
    %s3 = arith.muli %i2, %c1 : index
    %l4 = arith.addi %c0, %s3 : index
    %x6 = arith.muli %l4, %c3 : index
    %x5 = arith.addi %x6, %c1 : index
    %x8 = arith.remui %x5, %c37 : index
    %x9 = arith.index_cast %x8 : index to i32
    %x10 = arith.sitofp %x9 : i32 to f32
    %x11 = arith.mulf %x10, %k0p25_f32 : f32
    %fv7 = arith.subf %x11, %k2p0_f32 : f32
    memref.store %fv7, %alloc1[%i2] : memref<10xf32>
  }
  %alloc12 = memref.alloc() : memref<9x3xf32>
  scf.for %i13 = %c0 to %c9 step %c1 {
    scf.for %i14 = %c0 to %c3 step %c1 {
      %s15 = arith.muli %i13, %c3 : index
      %l16 = arith.addi %c0, %s15 : index
      %s17 = arith.muli %i14, %c1 : index
      %l18 = arith.addi %l16, %s17 : index
      %x20 = arith.muli %l18, %c3 : index
      %x19 = arith.addi %x20, %c2 : index
      %x22 = arith.remui %x19, %c37 : index
      %x23 = arith.index_cast %x22 : index to i32
      %x24 = arith.sitofp %x23 : i32 to f32
      %x25 = arith.mulf %x24, %k0p25_f32 : f32
      %fv21 = arith.subf %x25, %k2p0_f32 : f32
      memref.store %fv21, %alloc12[%i13, %i14] : memref<9x3xf32>
    }
  }
  %alloc26 = memref.alloc() : memref<10xf32>
  "memref.copy"(%alloc1, %alloc26) : (memref<10xf32>, memref<10xf32>) -> ()
  %r = func.call @kernel(%alloc26, %alloc12, %c10) : (memref<10xf32>, memref<9x3xf32>, index) -> f32
  "memref.copy"(%alloc26, %alloc1) : (memref<10xf32>, memref<10xf32>) -> ()
  memref.dealloc %alloc26 : memref<10xf32>
  "vector.print"(%r) : (f32) -> ()
  scf.for %i27 = %c0 to %c10 step %c1 {
    %s28 = arith.muli %i27, %c1 : index
    %l29 = arith.addi %c0, %s28 : index
    %p30 = memref.load %alloc1[%i27] : memref<10xf32>
    "vector.print"(%p30) : (f32) -> ()
  }
  scf.for %i31 = %c0 to %c9 step %c1 {
    scf.for %i32 = %c0 to %c3 step %c1 {
      %s33 = arith.muli %i31, %c3 : index
      %l34 = arith.addi %c0, %s33 : index
      %s35 = arith.muli %i32, %c1 : index
      %l36 = arith.addi %l34, %s35 : index
      %p37 = memref.load %alloc12[%i31, %i32] : memref<9x3xf32>
      "vector.print"(%p37) : (f32) -> ()
    }
  }
  memref.dealloc %alloc1 : memref<10xf32>
  memref.dealloc %alloc12 : memref<9x3xf32>
  func.return
}
