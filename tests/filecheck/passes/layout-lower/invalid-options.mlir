// Bad options of layout-lower are errors that name the option and what is accepted.
// RUN: not layout-opt %s -p 'layout-lower{index=foo}' 2>&1 | filecheck %s --check-prefix=INDEX
// RUN: not layout-opt %s -p 'layout-lower{flatten=maybe}' 2>&1 | filecheck %s --check-prefix=FLATTEN
// RUN: not layout-opt %s -p 'layout-lower{tile=4}' 2>&1 | filecheck %s --check-prefix=UNKNOWN

// INDEX: layout-lower: index=foo: expected arith or affine
// INDEX-NOT: Traceback
// FLATTEN: layout-opt: error: Incompatible types: given ('maybe',), expected <class 'bool'>
// FLATTEN-NOT: Traceback
// UNKNOWN: ["tile"] not found in expected arguments ["index", "flatten", "validate"]
func.func @f(%m: memref<16xf32, #layout.tag<"W->W4w">>) {
  func.return
}
