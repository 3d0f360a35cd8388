"""The browser client: pages served by the game server, and each game's board as SVG."""
