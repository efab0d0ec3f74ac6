// cf branches and blocks with arguments (mlir/test/Dialect/ControlFlow/ops.mlir).
func.func @branches(%c: i1, %a: i32, %b: i32, %n: index) -> i32 {
  cf.br ^bb1(%a : i32)
^bb1(%x: i32):
  %t = arith.cmpi slt, %x, %b : i32
  cf.cond_br %t, ^bb2(%x : i32), ^bb3
^bb2(%y: i32):
  %one = arith.constant 1 : i32
  %z = arith.addi %y, %one : i32
  cf.br ^bb1(%z : i32)
^bb3:
  cf.cond_br %c, ^bb4, ^bb5(%a, %b : i32, i32)
^bb4:
  cf.assert %c, "must hold"
  cf.switch %a : i32, [
    default: ^bb5(%a, %a : i32, i32),
    42: ^bb5(%b, %b : i32, i32),
    43: ^bb6
  ]
^bb5(%p: i32, %q: i32):
  %s = arith.addi %p, %q : i32
  return %s : i32
^bb6:
  return %x : i32
}
