"""The page's small pieces shared by its sections: the pane that says what is wrong with a
value, the banner over a stale answer, and intervals as the page writes them."""
from __future__ import annotations

from collections.abc import Sequence
import html

import panel as pn

#: where an answer would be while the link's cards are not the server's
FOREIGN = ("<span class='nothing-answered'>Nothing answered here: this server plays other cards "
           "than the link&#x27;s (see the top).</span>")
#: how a stale answer looks
STALE_STYLE = {"opacity": "0.35", "filter": "grayscale(1)"}


def fmt_ci(ci) -> str:
    return "-" if ci is None else f"[{ci[0]:.4f}, {ci[1]:.4f}]"


def fmt_signed_ci(ci) -> str:
    return "-" if ci is None else f"[{ci[0]:+.4f}, {ci[1]:+.4f}]"


def message_pane(css: str):
    """Where the page says what is wrong with a value (hidden while nothing is)."""
    return pn.pane.HTML("", visible=False, css_classes=[css], sizing_mode="stretch_width",
                        styles={"background": "#fdecea", "border": "1px solid #e6a09a",
                                "border-radius": "4px", "padding": "0 10px"})


def show_message(pane, text: str | Sequence[str] | None) -> None:
    """Show ``text`` (one refusal, or several, one a line) in ``pane``; ``None`` hides it."""
    lines = [text] if isinstance(text, str) else list(text or ())
    pane.object = "".join(f"<p class='error-text'>{html.escape(t)}</p>" for t in lines)
    pane.visible = bool(lines)


def stale_pane(css: str, text: str):
    """The banner over an answer whose settings changed since (hidden while they have not)."""
    return pn.pane.HTML(f"<b>{text}</b>", visible=False, css_classes=[css],
                        sizing_mode="stretch_width",
                        styles={"background": "#fff4ce", "border": "1px solid #e0c060",
                                "border-radius": "4px", "padding": "4px 10px"})


def mark(banner, output, stale: bool) -> None:
    banner.visible = stale
    output.styles = STALE_STYLE if stale else {}
    classes = [c for c in output.css_classes if c != "is-stale"]
    output.css_classes = classes + ["is-stale"] if stale else classes
