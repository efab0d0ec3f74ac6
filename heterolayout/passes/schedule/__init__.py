"""`layout-schedule`: loop nests restructured to walk their layouts' memory order.

One concept per module: `nest` (what a loop nest is), `dependence` (which reorderings are
legal), `plan` (digits and their order), `strip_mining`, `interchange`, `vectorization`,
`register_tiling` (the steps), `statements` and `emission` (the new IR) and `layout_schedule` (the pass).
"""
