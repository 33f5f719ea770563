"""Sphinx configuration of the slashersim documentation.

Build it (warnings are errors) with::

    .venv/bin/pip install -e ".[docs]" && .venv/bin/sphinx-build -W -b html docs docs/_build/html
"""
from pathlib import Path
import sys

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

import slashersim  # noqa: E402

project = "slashersim"
author = "The slashersim developers"
copyright = "the slashersim developers"
release = version = slashersim.__version__

extensions = [
    "myst_parser",
    "sphinx.ext.autodoc",
    "sphinx.ext.napoleon",
    "sphinxarg.ext",
]

source_suffix = {".md": "markdown"}
root_doc = "index"
exclude_patterns = ["_build", "README.md", "conftest.py"]

# MyST: headings get stable anchors (``rules.md#the-deal``), and tables, colon fences and
# definition lists read as in the pages' source
myst_heading_anchors = 3
myst_enable_extensions = ["colon_fence", "deflist"]

# autodoc: numpy-style docstrings, members in source order, signatures without type noise
autodoc_member_order = "bysource"
autodoc_typehints = "none"
napoleon_numpy_docstring = True
napoleon_google_docstring = False

html_theme = "pydata_sphinx_theme"
html_title = f"slashersim {release}"
html_theme_options = {
    "navigation_with_keys": False,
    "show_toc_level": 2,
    "secondary_sidebar_items": ["page-toc"],
}
html_sidebars = {"**": ["sidebar-nav-bs"]}
# the pages live only here: no "edit on" or "view source" links to a hosting service
html_show_sourcelink = False
