"""The published reports StorPlan was specified from, cited the way a customer reads them.

One mapping, :data:`SEED_TITLES`, from a report's three-digit number (the name the project's specification files
give it) to its public citation: kind of document, publisher, title, date, and document number or address where the
report prints one. The calibration writes its fitted profiles' sources with :func:`report_citation`, and
:func:`models.present.citations.customer_citation` rewrites any remaining internal reference with the same
mapping, so the catalog and what a customer reads never cite one report two ways.
"""

from __future__ import annotations

from typing import Final

SEED_TITLES: Final[dict[str, str]] = {
    "000": 'NetApp report "NetApp AFF8080A EX Storage Efficiency and Performance with SQL Server 2014" (2016)',
    "001": 'NetApp report "NetApp AFF A800 Performance with Oracle Database" (2019)',
    "002": ('VMware blog "Microsoft SQL Server on VMware All-Flash Virtual SAN - Update from the Reference '
            'Architecture Trenches" (vSAN 6.2)'),
    "003": ("SAS technical paper on SAS workload performance with the NetApp EF550 flash storage array (SAS lists "
            "its performance papers at http://support.sas.com/kb/42/197.html)"),
    "004": ('NetApp TR-4671 "Performance Characterization of NetApp Cloud Volumes ONTAP for Azure with Application '
            'Workloads" (March 2019)'),
}
"""The published reports StorPlan was specified from, by their three-digit number: title, publisher, date and
document number or address where the report prints one. Only the SAS paper's index page is a known public address;
the NetApp reports print no address of their own (TR-4671 prints its document number)."""


def report_citation(number: str, sections: str = "") -> str:
    """The public citation of one published report and, optionally, the sections cited.

    Args:
        number: the report's three-digit number, a key of :data:`SEED_TITLES` (``"004"``).
        sections: the sections, tables or figures cited, as the report numbers them (``"§4 Tables 2-5"``);
            empty for the report as a whole.

    Returns:
        ``'NetApp TR-4671 "Performance Characterization ..." (March 2019) §4 Tables 2-5'``: the title, a space and
        the sections.

    Raises:
        KeyError: ``number`` is not a report of :data:`SEED_TITLES`.
    """
    title = SEED_TITLES[number]
    return f"{title} {sections}" if sections.strip() else title
