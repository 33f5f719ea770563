"""Presentation: the words (:mod:`.text`) and the pictures (:mod:`.figures`, the one place that
draws with matplotlib) of every answer, shared by the Python API, the command line and the
page. Importing :mod:`.text` loads no matplotlib."""
