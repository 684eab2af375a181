"""Persistent tables (SQLModel) of the ledger and the few queries the API needs.

Alembic migrations (``ledger/migrations``) compare the database with ``metadata``.
"""
from sqlmodel import SQLModel

metadata = SQLModel.metadata
