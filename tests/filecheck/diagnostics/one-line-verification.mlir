// A verification error is one line: the file:line:col of the op, its name and what is
// wrong; xDSL's own verifiers too (which do not say which op failed), never the module.
// RUN: not layout-opt %s --split-input-file 2>&1 | filecheck %s
// RUN: not layout-run %s 2>&1 | filecheck %s
// RUN: layout-opt %s --split-input-file --verify-diagnostics | filecheck %s --check-prefix=VERIFY

// CHECK: {{^.*}}one-line-verification.mlir:[[# @LINE + 6]]:3: error: 'memref.load' op expected an index for each dimension
// CHECK-NOT: {{.}}
// VERIFY: expected an index for each dimension
// VERIFY-NOT: "builtin.module"
func.func @f(%m: memref<4x8xf32>) -> f32 {
  %c0 = arith.constant 0 : index
  %v = memref.load %m[%c0] : memref<4x8xf32>
  func.return %v : f32
}

// -----
// VERIFY: invalid layout in memref.alloc (result %a): memref<4xf32, #layout.tag<"NC->CN">>: the layout has rank 2 but the memref shape 4 has rank 1
func.func @g() {
  %a = memref.alloc() : memref<4xf32, #layout.tag<"NC->CN">>
  func.return
}
