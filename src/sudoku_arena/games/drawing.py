"""What every game's drawings share: the SVG document around a panel's elements."""

from __future__ import annotations

from collections.abc import Iterable


def panel_svg(game_class: str, label: str, width: float, height: float, body: Iterable[str]) -> str:
    """The panel beside a board (see ``GameEntry.render_panel``): ``body``'s elements in
    an SVG document of ``width`` x ``height`` units, drawn on the page one unit a pixel.
    ``label`` names it for screen readers."""
    return (
        f'<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 {width:.0f} {height:.0f}" '
        f'class="panel {game_class}" font-family="sans-serif" role="img" '
        f'aria-label="{label}">' + "".join(body) + "</svg>"
    )
