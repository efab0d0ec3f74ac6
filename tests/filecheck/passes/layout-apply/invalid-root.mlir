// layout.assign needs a buffer it can retype for its whole lifetime: an allocation, a
// function argument or a private global. A buffer returned by an external call is none.
// RUN: not layout-opt %s -p layout-apply 2>&1 | filecheck %s

// CHECK: layout-apply: layout.assign applies to an allocation, a function argument or a private global; this buffer comes from a result of func.call
func.func private @make() -> memref<16xf32>
func.func @f() {
  %a = func.call @make() : () -> memref<16xf32>
  layout.assign %a to #layout.tag<"W->W4w"> : memref<16xf32>
  func.return
}
