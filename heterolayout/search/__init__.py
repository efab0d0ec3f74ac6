"""Layout search (`layout-tune`, `heterolayout.tune`).

The whole program (the default): `graph` (its buffers and nests, each nest cut out into a
function of its own), `candidates` (`program_candidates`: row-major and the blocked layout
of each buffer's role), `whole` (`tune`: per-nest and boundary measurements, the global
choice, the whole-program check), `solve` (variable elimination, exact; iterated
conditional modes past its limit), `program_report`.

One hot loop nest (`--hot-nest`): `program` (buffers, the hot nest, the program with given
layouts), `candidates`, `cost`, `space`, `schedules`, `measure`, `search` (`tune`),
`report`. See docs/tune.md.
"""
