"""The game server: a lobby over HTTP, one websocket per connection, a database log.

Install the extra `server`; start it with `tianxia serve`. docs/server.md has the
protocol and the promises.
"""

# Allocations past deallocations that start a collection of the youngest objects in a
# server (and in the bench's clients). Every action makes a few thousand short-lived
# objects (views, frames, rows), and each young collection cost about a millisecond
# whatever its size: at the default threshold (700) the collector took a tenth of the
# server's CPU under load, at this one a thirtieth, with no more memory per game.
YOUNG_GC = 10_000
