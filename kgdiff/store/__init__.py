"""The snapshot store: immutable Parquet snapshots plus the ``kg.duckdb`` catalog."""
