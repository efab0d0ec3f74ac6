// A use its definition does not dominate is rejected by verification, with one line
// naming the op and the value (xDSL's verifier does not check dominance). Blocks that do
// dominate their uses verify.
// RUN: layout-opt %s --split-input-file --verify-diagnostics | filecheck %s

// CHECK: arith.addf at {{.*}}invalid-dominance.mlir:{{[0-9]+}}:{{[0-9]+}} uses %x (defined by arith.mulf) where its definition does not dominate the use
func.func @before_definition(%a: f32) -> f32 {
  %y = arith.addf %x, %a : f32
  %x = arith.mulf %a, %a : f32
  func.return %y : f32
}

// -----
// CHECK: func.return at {{.*}}invalid-dominance.mlir:{{[0-9]+}}:{{[0-9]+}} uses %x (defined by arith.mulf) where its definition does not dominate the use
func.func @other_branch(%c: i1, %a: f32) -> f32 {
  cf.cond_br %c, ^left, ^right
^left:
  %x = arith.mulf %a, %a : f32
  cf.br ^join
^right:
  cf.br ^join
^join:
  func.return %x : f32
}

// -----
// CHECK: memref.store at {{.*}}invalid-dominance.mlir:{{[0-9]+}}:{{[0-9]+}} uses %v (defined by arith.addf) where its definition does not dominate the use
func.func @into_a_loop(%m: memref<4xf32>, %a: f32) {
  %c0 = arith.constant 0 : index
  %c4 = arith.constant 4 : index
  %c1 = arith.constant 1 : index
  scf.for %i = %c0 to %c4 step %c1 {
    memref.store %v, %m[%i] : memref<4xf32>
  }
  %v = arith.addf %a, %a : f32
  func.return
}

// -----
// CHECK-LABEL: func.func @dominated(%c: i1, %a: f32) -> f32 {
// CHECK:         %x = arith.mulf %a, %a : f32
// CHECK:       ^{{.*}}(%y: f32):
// CHECK:         %s = arith.addf %x, %y : f32
func.func @dominated(%c: i1, %a: f32) -> f32 {
  %x = arith.mulf %a, %a : f32
  cf.cond_br %c, ^left, ^join(%a : f32)
^left:
  %z = arith.addf %x, %x : f32
  cf.br ^join(%z : f32)
^join(%y: f32):
  %s = arith.addf %x, %y : f32
  func.return %s : f32
}
