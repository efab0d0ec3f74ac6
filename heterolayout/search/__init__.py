"""Layout search (`layout-tune`, `heterolayout.tune`): candidate layouts per buffer, a
joint space ranked by a cost model, native measurement with a disk cache, and the report.

Modules: `program` (buffers, the hot nest, the program with given layouts), `candidates`,
`cost`, `space`, `measure`, `search` (`tune`), `report`. See docs/tune.md.
"""
