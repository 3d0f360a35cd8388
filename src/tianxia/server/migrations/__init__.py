"""Alembic migrations of the server's database (run by `tianxia serve` at start)."""
