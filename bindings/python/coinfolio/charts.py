"""Charts as SVG documents a host can show (``cf_chart_svg``)."""

from __future__ import annotations

from typing import Any, Mapping, Optional, Union

from . import _ffi

__all__ = ["chart_svg"]


def chart_svg(
    chart: Union[Mapping[str, Any], str, bytes],
    width: Optional[int] = None,
    height: Optional[int] = None,
    title: Optional[str] = None,
    theme: Optional[str] = None,
) -> str:
    """Draws the answer of :meth:`Engine.chart` or :meth:`Engine.portfolio_history` (a dict, or
    its JSON text) as a standalone SVG document.

    The line is green (``#16c784``) when the last value is at least the first, red
    (``#ea3943``) otherwise; gaps break the line. On the left, 3 to 6 round value ticks (steps of
    1, 2 or 5 × 10ⁿ, covering the data) written like :func:`format_value` (``"$40,000.00"``,
    more digits where the step needs them: ``"$0.0000025"``); below, the first and last dates and
    round times between them, in UTC (days for a week, months for a year). Partial points (a
    third member ``True``, as :meth:`Engine.portfolio_history` marks them) are dashed and lighter,
    with a note; the scale follows the complete points. A series with no value says "No data".
    Every text (the title too) is XML-escaped. ``cf_chart_svg`` in ``coinfolio.h`` gives the rules
    in full.

    Args:
        width, height: pixels, 64…4096 (None: 640 × 320).
        title: drawn above the chart; None for none.
        theme: ``"light"`` or ``"dark"`` (None: light).

    Raises:
        InvalidArgument: malformed chart JSON (no ``points`` array, a point that is not
            ``[number, number | None]``) or a bad option.
        TypeError: ``chart`` is not a dict, str or bytes.
    """
    if isinstance(chart, (str, bytes)):
        encoded_chart = _ffi.encode(chart, "chart")
    elif isinstance(chart, Mapping):
        encoded_chart = _ffi.encode_json(dict(chart), "chart")
    else:
        raise TypeError(f"chart must be a dict, str or bytes, not {type(chart).__name__}")
    options = _ffi.encode_json(_ffi.options(width=width, height=height, title=title, theme=theme), "options")
    return _ffi.call_text(_ffi.lib.cf_chart_svg, encoded_chart, options)
