// scf ops in upstream's custom syntax (mlir/test/Dialect/SCF/ops.mlir).
func.func @loops(%A: memref<?x?xf32>, %lb: index, %ub: index, %step: index) -> f32 {
  %zero = arith.constant 0.0 : f32
  %sum = scf.for %i = %lb to %ub step %step iter_args(%acc = %zero) -> (f32) {
    %x = memref.load %A[%i, %i] : memref<?x?xf32>
    %y = arith.addf %acc, %x : f32
    scf.yield %y : f32
  }
  scf.for %i = %lb to %ub step %step {
    scf.for %j = %lb to %ub step %step {
      memref.store %sum, %A[%i, %j] : memref<?x?xf32>
    }
  }
  %lbi = arith.index_cast %lb : index to i32
  %ubi = arith.index_cast %ub : index to i32
  %si = arith.index_cast %step : index to i32
  scf.for %k = %lbi to %ubi step %si : i32 {
  }
  return %sum : f32
}

func.func @conditionals(%c: i1, %a: f32, %b: f32) -> (f32, f32) {
  scf.if %c {
  }
  scf.if %c {
    %x = arith.addf %a, %b : f32
  } else {
    %y = arith.subf %a, %b : f32
  }
  %r = scf.if %c -> f32 {
    scf.yield %a : f32
  } else {
    scf.yield %b : f32
  }
  %p, %q = scf.if %c -> (f32, f32) {
    scf.yield %a, %b : f32, f32
  } else {
    scf.yield %b, %a : f32, f32
  }
  %s = arith.addf %r, %p : f32
  return %s, %q : f32, f32
}

func.func @parallel(%A: memref<?x?xf32>, %lb: index, %ub: index, %step: index, %init: f32) -> f32 {
  scf.parallel (%i, %j) = (%lb, %lb) to (%ub, %ub) step (%step, %step) {
    %x = memref.load %A[%i, %j] : memref<?x?xf32>
    memref.store %x, %A[%j, %i] : memref<?x?xf32>
    scf.reduce
  }
  %sum = scf.parallel (%i) = (%lb) to (%ub) step (%step) init (%init) -> f32 {
    %x = memref.load %A[%i, %i] : memref<?x?xf32>
    scf.reduce(%x : f32) {
    ^bb0(%l: f32, %r: f32):
      %s = arith.addf %l, %r : f32
      scf.reduce.return %s : f32
    }
  }
  %zero = arith.constant 0 : i32
  %s2:2 = scf.parallel (%i, %j) = (%lb, %lb) to (%ub, %ub) step (%step, %step) init (%sum, %zero) -> (f32, i32) {
    %x = memref.load %A[%i, %j] : memref<?x?xf32>
    %one = arith.constant 1 : i32
    scf.reduce(%x, %one : f32, i32) {
    ^bb0(%l: f32, %r: f32):
      %m = arith.maximumf %l, %r : f32
      scf.reduce.return %m : f32
    }, {
    ^bb0(%l: i32, %r: i32):
      %n = arith.addi %l, %r : i32
      scf.reduce.return %n : i32
    }
  }
  return %s2#0 : f32
}

func.func @while_loops(%n: i32) -> i32 {
  %c0 = arith.constant 0 : i32
  %c1 = arith.constant 1 : i32
  %r = scf.while (%i = %c0) : (i32) -> i32 {
    %t = arith.cmpi slt, %i, %n : i32
    scf.condition(%t) %i : i32
  } do {
  ^bb0(%i: i32):
    %j = arith.addi %i, %c1 : i32
    scf.yield %j : i32
  }
  return %r : i32
}

func.func @regions(%x: index) -> i32 {
  %a = scf.execute_region -> i32 {
    %c = arith.constant 5 : i32
    scf.yield %c : i32
  }
  %b = scf.index_switch %x -> i32
  case 2 {
    %c = arith.constant 10 : i32
    scf.yield %c : i32
  }
  case 5 {
    %c = arith.constant 20 : i32
    scf.yield %c : i32
  }
  default {
    scf.yield %a : i32
  }
  return %b : i32
}
