"""The client's version, sent to the engine in ``initialize.clientInfo`` (a module of its own so
that the client need not import the package that imports it)."""

__version__ = "0.1.0"
