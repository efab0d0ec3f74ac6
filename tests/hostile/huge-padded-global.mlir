// An uninitialised padded global is repacked at compile time: beyond the limit, refused.
// RUN: layout-opt -p layout-lower
// ERROR: memref.global @g: 10000099998 elements is more than the limit of 16777216 elements
"memref.global"() <{sym_name = "g", sym_visibility = "private", type = memref<99999x100000xf32, #layout.tag<"RC->RC3c", pad = 1.0>>, initial_value = unit}> : () -> ()
func.func @main() {
  func.return
}
