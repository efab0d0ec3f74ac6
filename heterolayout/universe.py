"""heterolayout's `xdsl.universe` entry point: after `pip install`, plain `xdsl-opt` (and any
tool built on xDSL's `Universe.get_multiverse()`) knows the `layout` dialect and our passes.

Dialects load lazily: listing the universe imports neither the dialect nor any pass.
"""

from xdsl.ir import Dialect
from xdsl.universe import Universe

from heterolayout.passes import get_all_passes


def get_layout_dialect() -> Dialect:
    from heterolayout.dialects import LayoutDialect

    return LayoutDialect


HETEROLAYOUT_UNIVERSE = Universe(
    all_dialects={"layout": get_layout_dialect},
    all_passes=get_all_passes(),
)
