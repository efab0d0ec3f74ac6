// Smoke test of the lit setup: xdsl-opt is on PATH and `filecheck`/`FileCheck` both work.
// RUN: xdsl-opt %s | filecheck %s
// RUN: xdsl-opt %s | FileCheck %s --check-prefix=PRETTY
// RUN: xdsl-opt %s -p canonicalize | filecheck %s --check-prefix=CANON

func.func @add_mul(%a: i32, %b: i32) -> i32 {
  %0 = arith.addi %a, %b : i32
  %c2 = arith.constant 2 : i32
  %1 = arith.muli %0, %c2 : i32
  return %1 : i32
}

func.func @fold() -> i32 {
  %c3 = arith.constant 3 : i32
  %c4 = arith.constant 4 : i32
  %0 = arith.addi %c3, %c4 : i32
  return %0 : i32
}

// CHECK:       builtin.module {
// CHECK-LABEL:   func.func @add_mul(%a: i32, %b: i32) -> i32 {
// CHECK-NEXT:      %0 = arith.addi %a, %b : i32
// CHECK-NEXT:      %c2 = arith.constant 2 : i32
// CHECK-NEXT:      %1 = arith.muli %0, %c2 : i32
// CHECK-NEXT:      func.return %1 : i32
// CHECK-NEXT:    }
// CHECK-LABEL:   func.func @fold() -> i32 {
// CHECK:           %{{.*}} = arith.addi %{{.*}}, %{{.*}} : i32

// PRETTY-NOT: "func.func"
// PRETTY:     func.return

// CANON-LABEL: func.func @fold() -> i32 {
// CANON-NEXT:    %{{.*}} = arith.constant 7 : i32
// CANON-NEXT:    func.return %{{.*}} : i32
// CANON-NEXT:  }
