// affine ops in upstream's custom syntax (mlir/test/Dialect/Affine/ops.mlir).
#map = affine_map<(d0)[s0] -> (d0 + s0)>
#lb = affine_map<(d0) -> (d0, 0)>
#ub = affine_map<(d0)[s0] -> (d0 + 8, s0)>
#set = affine_set<(d0, d1)[s0] : (d0 - 10 >= 0, s0 - d0 - 9 >= 0, d1 - 1 == 0)>

func.func @loops(%A: memref<100x100xf32>, %N: index, %M: index) {
  affine.for %i = 0 to 100 {
    affine.for %j = 0 to 100 step 4 {
      %x = affine.load %A[%i, %j] : memref<100x100xf32>
      affine.store %x, %A[%j, %i] : memref<100x100xf32>
    }
  }
  affine.for %i = 0 to %N {
    affine.for %j = max #lb(%i) to min #ub(%i)[%N] {
      %v = affine.load %A[%i + symbol(%N), %j * 2 + symbol(%M) floordiv 4] : memref<100x100xf32>
      %w = affine.load %A[%i + %j, symbol(%M)] : memref<100x100xf32>
      affine.store %v, %A[symbol(%N), %j mod 8] : memref<100x100xf32>
    }
  }
  affine.for %i = #map(%N)[%M] to 100 {
  }
  %zero = arith.constant 0.0 : f32
  %sum = affine.for %i = 0 to 100 iter_args(%acc = %zero) -> (f32) {
    %x = affine.load %A[%i, %i] : memref<100x100xf32>
    %y = arith.addf %acc, %x : f32
    affine.yield %y : f32
  }
  return
}

func.func @conditionals(%A: memref<100x100xf32>, %N: index) -> f32 {
  %c = arith.constant 1.0 : f32
  affine.for %i = 0 to 100 {
    affine.for %j = 0 to 100 {
      affine.if #set(%i, %j)[%N] {
        affine.store %c, %A[%i, %j] : memref<100x100xf32>
      }
      affine.if affine_set<(d0) : (d0 - 50 >= 0)>(%i) {
        affine.store %c, %A[%i, %j] : memref<100x100xf32>
      } else {
        affine.store %c, %A[%j, %i] : memref<100x100xf32>
      }
    }
  }
  %r = affine.if affine_set<()[s0] : (s0 - 1 >= 0)>()[%N] -> f32 {
    affine.yield %c : f32
  } else {
    %z = arith.constant 0.0 : f32
    affine.yield %z : f32
  }
  return %r : f32
}

func.func @parallel(%A: memref<100x100xf32>, %N: index) -> f32 {
  affine.parallel (%i, %j) = (0, 0) to (100, 100) step (10, 10) {
    affine.parallel (%ii, %jj) = (%i, %j) to (%i + 10, %j + 10) {
      %x = affine.load %A[%ii, %jj] : memref<100x100xf32>
      affine.store %x, %A[%jj, %ii] : memref<100x100xf32>
    }
  }
  affine.parallel (%k) = (0) to (min(%N, 100)) {
  }
  %s = affine.parallel (%i) = (0) to (100) reduce ("addf") -> f32 {
    %x = affine.load %A[%i, %i] : memref<100x100xf32>
    affine.yield %x : f32
  }
  %m:2 = affine.parallel (%i, %j) = (0, 0) to (100, 100) reduce ("maximumf", "minimumf") -> (f32, f32) {
    %x = affine.load %A[%i, %j] : memref<100x100xf32>
    affine.yield %x, %x : f32, f32
  }
  %t = arith.addf %s, %m#0 : f32
  return %t : f32
}

func.func @misc(%A: memref<100x100xf32>, %i: index, %j: index, %N: index) -> index {
  affine.prefetch %A[%i, %j + 5], read, locality<3>, data : memref<100x100xf32>
  affine.prefetch %A[%i, symbol(%N)], write, locality<0>, instr : memref<100x100xf32>
  %a = affine.apply #map(%i)[%N]
  %b = affine.apply affine_map<(d0, d1) -> (d0 * 4 + d1 floordiv 2)>(%i, %j)
  %c = affine.min affine_map<(d0)[s0] -> (d0, s0 - 1, 100)>(%a)[%N]
  %d = affine.max affine_map<(d0) -> (d0, 0)>(%b)
  %v = affine.vector_load %A[%i, %j * 4] : memref<100x100xf32>, vector<4xf32>
  affine.vector_store %v, %A[%j, symbol(%N)] : memref<100x100xf32>, vector<4xf32>
  %e:2 = affine.delinearize_index %a into (10, 10) : index, index
  %g:3 = affine.delinearize_index %a into (%N, 10) : index, index, index
  %f = affine.linearize_index [%e#0, %e#1] by (10, 10) : index
  %h = affine.linearize_index disjoint [%g#0, %g#1, %g#2] by (%N, 10) : index
  %s = arith.addi %c, %d : index
  %t = arith.addi %s, %f : index
  return %t : index
}
