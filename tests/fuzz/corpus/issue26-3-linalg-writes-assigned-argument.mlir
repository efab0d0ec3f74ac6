// fuzz case issue26-3-linalg-writes-assigned-argument (seed 90, element i32)
// issue 26, finding 3: a kernel argument under layout.assign written by linalg.generic only: every write lost (python -m benchmarks.fuzz --replay 90)
// site: @kernel type memref<?x4x5xi32, #layout.tag<"nCw8c", pad = 770336947>>
// site: @main assign memref<8xi32, #layout.strided<[-3], offset = 22, pad = -509660181>>
// site: @main type memref<6x4x5xi32, #layout.tag<"nCw8c", pad = 770336947>>
// site: @main type memref<?x4x5xi32, #layout.tag<"nCw8c", pad = 770336947>>
func.func @kernel(%A: memref<8xi32>, %B: memref<?x4x5xi32, #layout.tag<"nCw8c", pad = 770336947>>, %n: index) -> i32 {
  %c0 = arith.constant 0 : index
  %c5 = arith.constant 5 : index
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  %c6 = arith.constant 6 : index
  %km1_i32 = arith.constant -1 : i32
  %d1 = memref.dim %B, %c0 : memref<?x4x5xi32, #layout.tag<"nCw8c", pad = 770336947>>
  %alloca2 = memref.alloca() : memref<8xi32>
  "memref.copy"(%A, %alloca2) : (memref<8xi32>, memref<8xi32>) -> ()
  %acc = arith.constant 0 : i32
  %vec3 = affine.vector_load %B[%n mod 6, 0, 0] : memref<?x4x5xi32, #layout.tag<"nCw8c", pad = 770336947>>, vector<5xi32>
  %e4 = vector.extract %vec3[2] : i32 from vector<5xi32>
  %s5 = arith.addi %acc, %e4 : i32
  scf.for %n8 = %c0 to %c5 step %c1 {
    scf.for %n7 = %c0 to %c4 step %c1 {
      scf.for %n6 = %c0 to %c6 step %c1 {
        %nv9 = memref.load %B[%n6, %n7, %n8] : memref<?x4x5xi32, #layout.tag<"nCw8c", pad = 770336947>>
        %nr10 = arith.muli %nv9, %km1_i32 : i32
        memref.store %nr10, %B[%n6, %n7, %n8] : memref<?x4x5xi32, #layout.tag<"nCw8c", pad = 770336947>>
      }
    }
  }
  linalg.generic {indexing_maps = [affine_map<(d0) -> (d0)>], iterator_types = ["parallel"]} outs(%A : memref<8xi32>) {
  ^bb0(%out11: i32):
    %li12 = linalg.index 0 : index
    %ls13 = arith.muli %li12, %c5 : index
    %la14 = arith.addi %c1, %ls13 : index
    %iv15 = arith.index_cast %la14 : index to i32
    linalg.yield %iv15 : i32
  }
  %x16 = arith.remui %n, %c1 : index
  %v17 = memref.load %alloca2[%x16] : memref<8xi32>
  %s18 = arith.addi %s5, %v17 : i32
  func.return %s18 : i32
}
func.func @main() {
  %c0 = arith.constant 0 : index
  %c8 = arith.constant 8 : index
  %c1 = arith.constant 1 : index
  %c3 = arith.constant 3 : index
  %c6 = arith.constant 6 : index
  %c4 = arith.constant 4 : index
  %c5 = arith.constant 5 : index
  %c20 = arith.constant 20 : index
  %c2 = arith.constant 2 : index
  %alloc1 = memref.alloc() : memref<8xi32>
  scf.for %i2 = %c0 to %c8 step %c1 {
    %s3 = arith.muli %i2, %c1 : index
    %l4 = arith.addi %c0, %s3 : index
    %x6 = arith.muli %l4, %c3 : index
    %x5 = arith.addi %x6, %c1 : index
    %fv7 = arith.index_cast %x5 : index to i32
    memref.store %fv7, %alloc1[%i2] : memref<8xi32>
  }
  layout.assign %alloc1 to #layout.strided<[-3], offset = 22, pad = -509660181> : memref<8xi32>
  %alloc8 = memref.alloc() : memref<6x4x5xi32, #layout.tag<"nCw8c", pad = 770336947>>
  scf.for %i9 = %c0 to %c6 step %c1 {
    scf.for %i10 = %c0 to %c4 step %c1 {
      scf.for %i11 = %c0 to %c5 step %c1 {
        %s12 = arith.muli %i9, %c20 : index
        %l13 = arith.addi %c0, %s12 : index
        %s14 = arith.muli %i10, %c5 : index
        %l15 = arith.addi %l13, %s14 : index
        %s16 = arith.muli %i11, %c1 : index
        %l17 = arith.addi %l15, %s16 : index
        %x19 = arith.muli %l17, %c3 : index
        %x18 = arith.addi %x19, %c2 : index
        %fv20 = arith.index_cast %x18 : index to i32
        memref.store %fv20, %alloc8[%i9, %i10, %i11] : memref<6x4x5xi32, #layout.tag<"nCw8c", pad = 770336947>>
      }
    }
  }
  %cast21 = "memref.cast"(%alloc8) : (memref<6x4x5xi32, #layout.tag<"nCw8c", pad = 770336947>>) -> memref<?x4x5xi32, #layout.tag<"nCw8c", pad = 770336947>>
  %r = func.call @kernel(%alloc1, %cast21, %c5) : (memref<8xi32>, memref<?x4x5xi32, #layout.tag<"nCw8c", pad = 770336947>>, index) -> i32
  "vector.print"(%r) : (i32) -> ()
  scf.for %i22 = %c0 to %c8 step %c1 {
    %s23 = arith.muli %i22, %c1 : index
    %l24 = arith.addi %c0, %s23 : index
    %p25 = memref.load %alloc1[%i22] : memref<8xi32>
    "vector.print"(%p25) : (i32) -> ()
  }
  scf.for %i26 = %c0 to %c6 step %c1 {
    scf.for %i27 = %c0 to %c4 step %c1 {
      scf.for %i28 = %c0 to %c5 step %c1 {
        %s29 = arith.muli %i26, %c20 : index
        %l30 = arith.addi %c0, %s29 : index
        %s31 = arith.muli %i27, %c5 : index
        %l32 = arith.addi %l30, %s31 : index
        %s33 = arith.muli %i28, %c1 : index
        %l34 = arith.addi %l32, %s33 : index
        %p35 = memref.load %alloc8[%i26, %i27, %i28] : memref<6x4x5xi32, #layout.tag<"nCw8c", pad = 770336947>>
        "vector.print"(%p35) : (i32) -> ()
      }
    }
  }
  memref.dealloc %alloc1 : memref<8xi32>
  memref.dealloc %alloc8 : memref<6x4x5xi32, #layout.tag<"nCw8c", pad = 770336947>>
  func.return
}
