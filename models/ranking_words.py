"""The sizer's ranking rule in words (``models.sizing``: what ``Candidate.rank_key``, ``Candidate.variant_key`` and
``pareto_front`` compute), in full for the report, the command line and the sizer's summary, and in short for the
line under the sizer's price-book button: one module, so both say the same steps. Plain strings, imports nothing (the
sizer dialog reads the short form when it opens; ``models.sizing`` re-exports both)."""

from __future__ import annotations


def ranking_rule(priced: bool, rank_on: str = "performance") -> str:
    """The ranking rule in words, as the report, the command line and the sizer dialog state it (one sentence,
    no final full stop): what :meth:`Candidate.rank_key`, :meth:`Candidate.variant_key` and :func:`pareto_front`
    compute. ``priced``: the project has a price book; ``rank_on``: ``Requirements.rank_on``."""
    smaller = ("then the smaller controller (the fewest controller cores of an array, as the catalog gives them: "
               "where the maker publishes no core count the count is assumed, so an order this step alone decides "
               "rests on assumed cores"
               + ("; in the cloud the fewest vCPUs)" if not priced and rank_on != "tco" else ")"))
    if rank_on == "tco":
        first = ("the lowest total cost over the horizon, then the fewest rack units, then the least power, among "
                 "the designs the price book prices in full; a design with an item it does not price (every "
                 "on-premises design without a price book) comes after them, its partial price not compared: by "
                 "its cost over the horizon without the hardware (power and space; a cloud design at the providers' "
                 f"published prices where the book has none), then the fewest rack units, then the least power, "
                 f"{smaller}")
    elif priced:
        first = ("the lowest cost by the project's price book, then the fewest rack units, then the least power, "
                 "among the designs it prices in full; a design with an item it does not price comes after them, "
                 "its partial price not compared: by the fewest rack units, then the least power, then in the cloud "
                 f"the lowest total cost over the horizon at the providers' published prices; {smaller}")
    else:
        first = ("the deployments in the order the requirements list them (on premises, then HCI, then the cloud "
                 "where they list none), then the fewest rack units, then the "
                 "least power (unknown last), then in the cloud the lowest total cost over the horizon at the "
                 "providers' published prices (as Cost and footprint prices them: a managed service sized month by "
                 f"month to hold the data and carry the I/O, or at a larger size shown as the least each month), "
                 f"{smaller}")
    return (f"Ranked by {first}, then the most headroom over the grown targets: at an equal footprint (or power "
            "unknown) the smallest controller that meets comes before a larger one with more headroom; equal on all "
            "of these, the smaller design comes first (the fewest drives or capacity devices, a cloud design's "
            "least disk, a managed service's smallest size), then the least effective capacity. Each "
            "configuration is shown as the smallest of its drive, shelf, disk or service-size variants that meets "
            "(a larger variant, such as more drives or shelves on the same controller, is not ranked on its own), "
            "and configurations tied on every criterion and figure are one row naming the others (either serves "
            "equally; the first is named by catalog and protocol order, not preference). ★ marks the "
            "Pareto front of the configurations so shown: no other one evaluated is as good on every one of these "
            "criteria and better on one, so the first ranked is always on it")


def ranking_steps(priced: bool, rank_on: str = "performance") -> str:
    """The ranking rule's steps in short, for the one line under the sizer's price-book button: the same steps, in
    the same order, as :func:`ranking_rule` states in full (one source: a step added there is added here)."""
    if rank_on == "tco":
        steps = ["total cost over the horizon (running costs only where the price book lacks the hardware; a "
                 "cloud design at the providers' published prices where the book has none)", "rack units", "power"]
    elif priced:
        steps = ["cost by the price book", "rack units", "power",
                 "for an incompletely priced cloud design its total cost at the providers' published prices"]
    else:
        steps = ["the deployments' order (on premises, HCI, cloud unless the requirements list others)",
                 "rack units", "power", "in the cloud the total cost at the providers' published prices"]
    steps += ["the smaller controller (cores as catalogued, some assumed)", "headroom",
              "the smaller design (fewest drives or disks)"]
    return ", then ".join(steps)
