"""The one style of every figure, and the blank figure every figure starts from: a
:class:`matplotlib.figure.Figure` on the Agg canvas, never through ``pyplot``, at most
:data:`MAX_INCHES` a side and at most 3:1."""
import matplotlib
from matplotlib.backends.backend_agg import FigureCanvasAgg
from matplotlib.figure import Figure

#: dots per inch of every figure, on screen and saved
DPI = 120
#: no figure side exceeds this many inches (2400 px at :data:`DPI`)
MAX_INCHES = 2400 / DPI
#: at most this many entries in a legend
MAX_LEGEND = 5

#: the one style of every figure, applied with ``matplotlib.rc_context``
STYLE = {
    "figure.dpi": DPI,
    "savefig.dpi": DPI,
    "figure.facecolor": "white",
    "savefig.facecolor": "white",
    "figure.constrained_layout.use": True,
    "font.size": 10,
    "axes.titlesize": 10,
    "figure.titlesize": 12,
    "axes.labelsize": 10,
    "xtick.labelsize": 9,
    "ytick.labelsize": 9,
    "legend.fontsize": 9,
    "legend.frameon": False,
    "axes.grid": True,
    "axes.axisbelow": True,
    "grid.alpha": 0.3,
    "axes.spines.top": False,
    "axes.spines.right": False,
    "axes.prop_cycle": matplotlib.cycler(color=matplotlib.colormaps["tab10"].colors),
}


def new_figure(width=7.0, height=4.5):
    """A blank figure ``width`` × ``height`` inches on the Agg canvas, cut to
    :data:`MAX_INCHES` a side and 3:1."""
    width = min(width, MAX_INCHES, 3 * height)
    height = min(height, MAX_INCHES, 3 * width)
    fig = Figure(figsize=(width, height))
    FigureCanvasAgg(fig)
    return fig


def legend_entries(fig):
    """How many entries the legends of ``fig`` hold, figure legends and axes legends together."""
    legends = list(fig.legends) + [ax.get_legend() for ax in fig.axes if ax.get_legend()]
    return sum(len(lg.get_texts()) for lg in legends)
