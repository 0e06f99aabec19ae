"""Pictures for papers: an entity's timeline and the staleness curve, as SVG or PNG files
that carry the table they were drawn from (docs/plots.md).

Only the chart modules import matplotlib (lazily, ``Agg`` backend); reading a picture's data
back needs none: ``read_plot_data("figure.svg").frame``.
"""

from kgdiff.plot.embed import PlotData, read_plot_data

__all__ = ["PlotData", "read_plot_data"]
