"""``stol-client browse``: a terminal species browser over the engine, written with Textual.

Install it with the ``[tui]`` extra (``pip install 'stol-client[tui]'``). Import
:class:`~stol_client.tui.app.BrowserApp` from ``stol_client.tui.app``; importing this package
alone does not need Textual.
"""

MISSING_TEXTUAL = ("the browser needs Textual: install the client with its [tui] extra, "
                   "e.g. pip install -e 'clients/python-example[tui]'")
