// A vector-packed global is refused by layout-lower, naming the global: MLIR's dense
// initializers cannot hold vectors, so its initializer has no physical form. An integer
// container of the same lanes lowers (see convert-global.mlir).
// RUN: not layout-opt %s -p layout-lower 2>&1 | filecheck %s

// CHECK: {{.*}}invalid-vector-global.mlir:[[# @LINE + 1]]:1: error: layout-lower: memref.global @v has a vector-packed layout; MLIR's dense initializers cannot hold vectors (use an integer container)
"memref.global"() <{sym_name = "v", sym_visibility = "private", type = memref<2x5xi1, #layout.tag<"RW->RW6w", pack = vector<6xi1>>>, initial_value = dense<true> : tensor<2x5xi1>, constant}> : () -> ()
