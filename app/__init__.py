"""StorPlan's front doors: the command line (``app.cli``), the desktop app (``app.gui``) and the PDF report."""
