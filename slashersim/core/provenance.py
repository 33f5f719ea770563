"""Where a result came from: the software that made it (version, git commit, source hash) and
when. Pure Python; reading it never imports a compiled kernel.

A table's provenance (see :mod:`slashersim.runner.tables`) adds the command, the spec, the seed, the
games, each policy and its parameters, and the full configuration of every cell.
"""
from datetime import UTC, datetime
from functools import cache
import hashlib
from importlib import metadata
from pathlib import Path
import platform
import subprocess

from .. import __version__

PACKAGE_DIR = Path(__file__).resolve().parents[1]


#: the package's sources that compiled code can reach: every module defining a numba function
#: (``@njit``, ``lazy_njit``, ``closure_njit``, ``@intrinsic``) and every module whose names the
#: compiled functions read (``tests/test_compiling.py`` derives that list from the code and
#: checks it is covered); a folder covers every module under it but those of
#: :data:`NOT_KERNEL_SOURCES` (the players' registry, the checks of their choice and of what a
#: Python player reaches)
KERNEL_SOURCES = ("core/layout.py", "core/fields.py", "core/rules.py", "engine/", "policies/",
                  "runner/kernels.py", "runner/recorded.py", "runner/tape.py",
                  "analysis/hygiene.py")
NOT_KERNEL_SOURCES = ("policies/__init__.py", "policies/choice.py", "policies/params.py",
                      "policies/reach.py")


def _digest(paths, root, *extra):
    digest = hashlib.sha1()
    for text in extra:
        digest.update(text.encode())
    for path in sorted(paths):
        digest.update(str(path.relative_to(root)).encode())
        digest.update(path.read_bytes())
    return digest.hexdigest()


@cache
def source_digest():
    """SHA-1 of this package's Python sources (paths and contents): names the code that played
    a table's games even outside a git checkout."""
    return _digest(PACKAGE_DIR.rglob("*.py"), PACKAGE_DIR)


def kernel_sources(root=PACKAGE_DIR):
    """The files of :data:`KERNEL_SOURCES` under the package folder ``root``."""
    files = set()
    for entry in KERNEL_SOURCES:
        path = root / entry
        files.update(path.rglob("*.py") if entry.endswith("/") else [path])
    return sorted(files - {root / entry for entry in NOT_KERNEL_SOURCES})


def kernel_digest(root=PACKAGE_DIR):
    """SHA-1 of what the compiled kernels are made of: the sources of :data:`KERNEL_SOURCES`
    and the versions of numba, numpy and Python. It keys the numba cache, so an edit elsewhere
    (the command line, the page, the analyses) keeps every compiled kernel."""
    return _digest(kernel_sources(root), root, f"numba {_version('numba')}",
                   f"numpy {_version('numpy')}", f"python {platform.python_version()}")


@cache
def package_kernel_digest():
    """:func:`kernel_digest` of this package, computed once per process."""
    return kernel_digest()


def _git(*args):
    """stdout of ``git -C PACKAGE_DIR ARGS``, or ``None`` when git fails or is missing."""
    try:
        p = subprocess.run(["git", "-C", str(PACKAGE_DIR), *args], capture_output=True,
                           text=True, timeout=10)
    except (OSError, subprocess.SubprocessError):
        return None
    return p.stdout if p.returncode == 0 else None


@cache
def git_state():
    """``{"commit": sha, "dirty": bool}`` of the git checkout holding this package, or ``None``
    when the package is not a tracked part of one (e.g. installed from a wheel). ``dirty``: the
    package's sources differ from the commit (uncommitted or untracked files under
    ``slashersim/``), so the commit alone does not name the code that ran."""
    if _git("ls-files", "--error-unmatch", "__init__.py") is None:
        return None
    commit = _git("rev-parse", "HEAD")
    if commit is None:
        return None
    status = _git("status", "--porcelain", "--untracked-files=all", "--", ".")
    return {"commit": commit.strip(), "dirty": bool(status and status.strip())}


def _version(dist):
    try:
        return metadata.version(dist)
    except metadata.PackageNotFoundError:
        return None


def software():
    """The software behind a result, JSON-ready: ``slashersim`` (version), ``git`` (see
    :func:`git_state`), ``source_sha1`` (:func:`source_digest`), and the versions of
    Python, numpy and numba."""
    return {"slashersim": __version__, "git": git_state(), "source_sha1": source_digest(),
            "python": platform.python_version(), "numpy": _version("numpy"),
            "numba": _version("numba")}


def now():
    """The current time in UTC, ISO 8601 to the second."""
    return datetime.now(UTC).replace(microsecond=0).isoformat()
