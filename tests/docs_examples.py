"""The examples of ``README.md`` and ``docs/**/*.md``, run as the reader would run them.

Three kinds of fenced block run (with Sybil: :func:`sybil`), every other kind (``bash``,
``text``, ``toml``, ``json``) is shown only:

- ``console``: lines ``$ slashersim ARGS`` are commands, the lines after each its output. A
  command runs through :func:`slashersim.cli.main` in-process, its stdout and stderr captured
  together, in order, as a terminal shows them; the lines a first run prints while it compiles
  are left out (they depend on the cache). ``...`` matches any text (doctest's ``ELLIPSIS``),
  so a timing or a table's tail can be elided; every other character must match.
- ``python`` starting with ``>>>``: a doctest (``ELLIPSIS`` and ``NORMALIZE_WHITESPACE``).
- ``python`` without ``>>>``: code that must run without an error.

A document's examples run in order in one namespace, in a fresh working folder where
``experiments/`` and ``results/`` are links to the repository's, so commands may read those
and write files of their own.

``python tests/docs_examples.py FILE.md ...`` runs the examples of each file and rewrites every
console and doctest output that no longer matches with the real one (an output that still
matches, ellipses included, is kept as written).
"""
from contextlib import redirect_stderr, redirect_stdout
import doctest
import io
import os
from pathlib import Path
import re
import shlex
import sys
import tempfile
import traceback

ROOT = Path(__file__).resolve().parents[1]
#: the pages whose examples run
DOCUMENTS = ("README.md", *sorted(str(p.relative_to(ROOT)) for p in (ROOT / "docs").rglob("*.md")
                                  if "_build" not in p.parts))
#: folders of the repository a document's working folder links to
LINKED = ("experiments", "results", "examples")
FLAGS = doctest.ELLIPSIS | doctest.NORMALIZE_WHITESPACE
_COMPILING = re.compile(r"^slashersim: compil(ing|ed in)\b")
_CHECKER = doctest.OutputChecker()


def run_command(line):
    """The output of one console command line (``slashersim ...``), stdout and stderr as a
    terminal shows them, without the compile report; lines right-stripped."""
    words = shlex.split(line)
    if not words or words[0] != "slashersim":
        raise ValueError(f"a console example runs slashersim commands only, got {line!r}")
    from slashersim.cli import main
    buf = io.StringIO()
    with redirect_stdout(buf), redirect_stderr(buf):
        try:
            main(words[1:])
        except SystemExit:
            pass
    lines = [s.rstrip() for s in buf.getvalue().splitlines() if not _COMPILING.match(s)]
    return "\n".join(lines) + "\n" if lines else ""


def console_steps(source):
    """``[(command, expected output)]`` of a console block."""
    steps = []
    for line in source.splitlines():
        if line.startswith("$ "):
            steps.append([line[2:], []])
        elif steps:
            steps[-1][1].append(line.rstrip())
        elif line.strip():
            raise ValueError(f"console block output before any command: {line!r}")
    return [(cmd, "\n".join(out) + "\n" if out else "") for cmd, out in steps]


def matches(want, got):
    return _CHECKER.check_output(want, got, doctest.ELLIPSIS)


def evaluate_console(example):
    """Sybil evaluator of a console block: ``None``, or what differs."""
    for cmd, want in console_steps(example.parsed):
        got = run_command(cmd)
        if not matches(want, got):
            return f"$ {cmd}\n--- shown\n{want}--- real\n{got}"
    return None


def sybil():
    """The Sybil that reads the examples of one document."""
    from sybil import Sybil
    from sybil.parsers.myst import CodeBlockParser, PythonCodeBlockParser
    return Sybil(parsers=[PythonCodeBlockParser(doctest_optionflags=FLAGS),
                          CodeBlockParser(language="console", evaluator=evaluate_console)],
                 path=str(ROOT))


class working_folder:
    """A fresh working folder with links to the repository's ``experiments/``, ``results/`` and
    ``examples/``, made the current folder (and the first entry of ``sys.path``) while a
    document's examples run; the player registry is put back as it was afterwards."""

    def __enter__(self):
        from slashersim.policies import kept_registry
        self._registry = kept_registry()        # a page may register a player of its own
        self._registry.__enter__()
        self._tmp = tempfile.TemporaryDirectory(prefix="slashersim-docs-")
        self._cwd = os.getcwd()
        for name in LINKED:
            os.symlink(ROOT / name, Path(self._tmp.name) / name)
        os.chdir(self._tmp.name)
        sys.path.insert(0, self._tmp.name)      # as ``python`` run in that folder has it
        return Path(self._tmp.name)

    def __exit__(self, *exc):
        self._registry.__exit__(None, None, None)
        sys.path.remove(self._tmp.name)
        os.chdir(self._cwd)
        self._tmp.cleanup()


def run_document(name):
    """Run every example of document ``name`` (relative to the repository) in order; raise
    :class:`sybil.example.SybilFailure` at the first that fails."""
    document = sybil().parse(ROOT / name)
    with working_folder():
        for example in document:
            example.evaluate()


# --- rewriting outputs that changed --------------------------------------------------------------

def _doctest_outputs(source, namespace):
    """The source of a doctest block with each example's output replaced by the real one where
    it no longer matches."""
    parser = doctest.DocTestParser()
    out = []
    for piece in parser.parse(source):
        if isinstance(piece, str):
            out.append(piece)
            continue
        buf = io.StringIO()
        with redirect_stdout(buf):
            try:
                exec(compile(piece.source, "<doc>", "single"), namespace)
            except Exception as e:  # noqa: BLE001 (shown as doctest would)
                last = traceback.format_exception_only(type(e), e)[-1]
                buf.write(f"Traceback (most recent call last):\n  ...\n{last}")
        got = buf.getvalue()
        want = piece.want if _CHECKER.check_output(piece.want, got, FLAGS) else got
        prompt = " " * piece.indent
        lines = piece.source.rstrip("\n").split("\n")
        out.append(prompt + ">>> " + lines[0] + "\n")
        out.extend(prompt + "... " + s + "\n" for s in lines[1:])
        out.extend(prompt + s + "\n" for s in want.splitlines())
    return "".join(out)


def update(name):
    """Rewrite the outputs of document ``name`` that no longer match (see the module doc)."""
    path = ROOT / name
    text = path.read_text()
    blocks = list(re.finditer(r"^```(console|python)\n(.*?)^```$", text, re.S | re.M))
    namespace = {"__name__": "__docs__"}
    pieces, last = [], 0
    with working_folder():
        for m in blocks:
            lang, source = m.group(1), m.group(2)
            if lang == "python" and not source.lstrip().startswith(">>>"):
                exec(compile(source, name, "exec"), namespace)
                continue
            if lang == "python":
                new = _doctest_outputs(source, namespace)
            else:
                new = ""
                for cmd, want in console_steps(source):
                    got = run_command(cmd)
                    new += f"$ {cmd}\n" + (want if matches(want, got) else got)
            pieces.append(text[last:m.start(2)] + new)
            last = m.end(2)
    path.write_text("".join(pieces) + text[last:])


if __name__ == "__main__":
    for arg in sys.argv[1:]:
        update(str(Path(arg).resolve().relative_to(ROOT)))
        print(f"checked {arg}", file=sys.stderr)
