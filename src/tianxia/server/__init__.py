"""The game server: a lobby over HTTP, one websocket per connection, a database log.

Install the extra `server`; start it with `tianxia serve`. docs/server.md has the
protocol and the promises.
"""
