"""The base every layer stands on: the rules' ids and tables, the layout of the arrays the
kernels share, a configuration of the rules (:mod:`.config`), the cards and presets it reads,
input checks, errors, files, statistics, progress, provenance and the compile machinery
(the numba cache, the compile notice). Pure Python: nothing here compiles a kernel."""
