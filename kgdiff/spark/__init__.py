"""Scale-out on Apache Spark: the same row builder and the same ``sql/`` (docs/spark.md)."""
