// layout.assign on a public global is refused: its type is part of the module's interface.
// layout-lower (which runs layout-apply first) fails the same way.
// RUN: not layout-opt %s -p layout-apply 2>&1 | filecheck %s
// RUN: not layout-opt %s -p layout-lower 2>&1 | filecheck %s

// CHECK: {{.*}}invalid-public-global.mlir:[[# @LINE + 4]]:3: error: layout-apply: @g is not a private global: its type is part of the module's interface; copy it into a buffer and assign the layout to that
"memref.global"() <{sym_name = "g", sym_visibility = "public", type = memref<16xf32>, initial_value = dense<0.0> : tensor<16xf32>}> : () -> ()
func.func @f() {
  %g = memref.get_global @g : memref<16xf32>
  layout.assign %g to #layout.tag<"W->W4w"> : memref<16xf32>
  func.return
}
