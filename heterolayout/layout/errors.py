"""The one exception type of the layout model."""


class LayoutError(ValueError):
    """A layout that cannot exist, or a spec that does not parse.

    Messages are one line and name the notation, attribute or index at fault, so the
    command-line tools can print them as they are.
    """
