"""The rules as compiled code (numba). Importing it first points numba's cache at this
package's own folder (:func:`slashersim.core.numba_cache.configure`)."""
from ..core.numba_cache import configure

configure()
