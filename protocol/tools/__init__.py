"""Tools that keep ``protocol/SPEC.md`` true to the code (``python -m protocol.tools.dumps``)."""
