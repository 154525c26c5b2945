"""The ladder (``arena ladder``): submitted bots, continuous matchmaking, ratings and a web page.

Modules: ``_archive`` (unpacking submitted archives safely), ``_intake`` (build and vet a
submission), ``_matchmaking`` (which tables to play next), and the server pieces. Importing this
package imports nothing heavy: the web stack (Starlette, Hypercorn) is imported only by the
server modules that need it.
"""
