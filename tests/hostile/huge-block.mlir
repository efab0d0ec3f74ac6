// A block beyond any index range overflowed.
// RUN: layout-opt
// RUN: layout-run
// ERROR: block size 99999999999999999999999 of dim 'W' is too large (the limit is 2^40 = 1099511627776)
func.func @main(%a: memref<4xf32, #layout.tag<"W->W99999999999999999999999w">>) {
  func.return
}
