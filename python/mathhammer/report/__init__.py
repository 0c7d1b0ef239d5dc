"""Tables and pictures, knowing nothing of dice: the :class:`~mathhammer.report.tables.Table` and
:class:`~mathhammer.report.tables.Section` every result is printed as, the renderers that need no
command-line library (Markdown, HTML, CSV, text), and plots of the arrays they are given
(docs/architecture.md)."""
