"""Alembic's environment: the URL comes from the server, the schema from storage.py."""

from __future__ import annotations

from alembic import context

from tianxia.server.storage import make_engine, metadata

config = context.config


def run() -> None:
    url = config.get_main_option("sqlalchemy.url")
    assert url is not None
    engine = make_engine(url)
    with engine.connect() as connection:
        context.configure(connection=connection, target_metadata=metadata)
        with context.begin_transaction():
            context.run_migrations()
    engine.dispose()


run()
