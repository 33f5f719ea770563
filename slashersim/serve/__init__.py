"""``slashersim serve``: the difficulty explorer, a page in the browser.

:mod:`.settings` (pure Python) checks what the page asks for; :mod:`.live` plays it through the
public API in background threads; :mod:`.app` is the page, a Panel app (the optional extra
``slashersim[web]``). Importing this package imports no web library and compiles nothing.
"""

WEB_EXTRA = "install slashersim[web]: pip install -e '.[web]'"


def web_available() -> bool:
    """Whether the web libraries of the extra ``[web]`` (Panel, and Bokeh with it) import."""
    try:
        import bokeh  # noqa: F401
        import panel  # noqa: F401
    except ImportError:
        return False
    return True
