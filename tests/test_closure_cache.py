"""Closures of one line (every mixed pair is a closure of ``runner.kernels.pair_function``) are
cached per closure: two processes compiling two of them at once never leave one closure's key
pointing at the other's code."""
import os
from pathlib import Path
import subprocess
import sys
import textwrap

MODULE = '''
import numpy as np
from numba import types
from slashersim.engine.lazy import closure_njit


def make(k):
    k = np.int64(k)

    @closure_njit(types.int64(types.int64))
    def closure(x):
        return x + k

    return closure
'''

# numba's IndexDataCacheFile.save reads the index, takes the first free data number, writes
# the index, then the data, unlocked; the marker files force the interleaving of two processes
# that makes closure A's key point at B's data under one shared index: A and B read the index,
# B writes {kB: 1}, A writes {kA: 1} and data 1, B writes data 1.
ROLE = '''
import sys, time
from pathlib import Path
from numba.core import caching

name, k, marks = sys.argv[1], int(sys.argv[2]), Path(sys.argv[3])
F = caching.IndexDataCacheFile
load_index, save_index, save_data, save = F._load_index, F._save_index, F._save_data, F.save
saving = []


def wait(path):
    for _ in range(3000):
        if path.exists():
            return
        time.sleep(0.01)
    raise TimeoutError(path)


def my_save(self, key, data):
    saving.append(1)
    try:
        return save(self, key, data)
    finally:
        saving.pop()


def my_load_index(self):
    overloads = load_index(self)
    if saving:
        (marks / f"{name}_loaded").touch()
        wait(marks / ("B_loaded" if name == "A" else "A_loaded"))
        if name == "A":
            wait(marks / "B_index")
    return overloads


def my_save_index(self, overloads):
    save_index(self, overloads)
    (marks / f"{name}_index").touch()


def my_save_data(self, data_name, data):
    if name == "B":
        wait(marks / "A_data")
    save_data(self, data_name, data)
    (marks / f"{name}_data").touch()


F.save, F._load_index, F._save_index, F._save_data = my_save, my_load_index, my_save_index, \\
    my_save_data
import closures
print(closures.make(k)(0))
'''


def test_two_closures_of_one_line_compiled_at_once_keep_their_own_code(tmp_path):
    (tmp_path / "closures.py").write_text(MODULE)
    (tmp_path / "role.py").write_text(ROLE)
    marks = tmp_path / "marks"
    marks.mkdir()
    env = {**os.environ, "NUMBA_CACHE_DIR": str(tmp_path / "cache"),
           "PYTHONPATH": os.pathsep.join([str(tmp_path), str(Path(__file__).parents[1]),
                                          os.environ.get("PYTHONPATH", "")])}
    roles = [subprocess.Popen([sys.executable, str(tmp_path / "role.py"), name, str(k),
                               str(marks)], env=env, stdout=subprocess.PIPE, text=True)
             for name, k in (("A", 1), ("B", 2))]
    assert [p.communicate(timeout=120)[0].split() for p in roles] == [["1"], ["2"]]
    check = textwrap.dedent("""
        import closures
        print(closures.make(1)(0), closures.make(2)(0))
    """)
    loaded = subprocess.run([sys.executable, "-c", check], env=env, capture_output=True,
                            text=True, check=True).stdout.split()
    assert loaded == ["1", "2"]


def test_two_closures_of_one_line_have_their_own_cache_files(tmp_path, monkeypatch):
    monkeypatch.setenv("NUMBA_CACHE_DIR", str(tmp_path))
    import numpy as np

    from slashersim.engine.lazy import _CellsKeyedCache

    def make(k):
        k = np.int64(k)

        def closure(x):
            return x + k
        return closure

    a, b, a2 = (_CellsKeyedCache(make(k))._cache_file for k in (1, 2, 1))
    assert a._index_path != b._index_path
    assert a._index_path == a2._index_path
