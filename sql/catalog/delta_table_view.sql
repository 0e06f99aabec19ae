-- name: delta_table_view
-- purpose: Catalog view over one table of every published snapshot when some are stored as
--          deltas (kgdiff refresh, docs/refresh.md): each snapshot's own rows, as table_view
--          reads them, and then the rows each delta takes from the snapshots below it. A delta
--          D holds the rows of the entities it changed and lists in its `changes` table every
--          id whose rows it replaces or removes; the rows of a snapshot L under D (its base,
--          the base's base, ...) read as D's unless D or a snapshot between them lists their
--          subject. So every snapshot reads as a whole one, with the rows an ingest of its
--          state would give.
-- params: {{@table}} view name (identifier); {{@key}} its subject column (qid or subject);
--         {{files}} every snapshot's own Parquet files (globs), relative to the store root;
--         {{carried_files}} the files of the snapshots some delta builds on;
--         {{change_files}} the `changes` files of every delta;
--         {{carry_deltas}}, {{carry_layers}}: pairs (delta D, snapshot L under it) whose rows
--         D reads; {{mask_deltas}}, {{mask_layers}}, {{mask_by}}: triples (D, L, M) where the
--         ids in M's `changes` hide L's rows from D (M is D or a snapshot between D and L).
CREATE OR REPLACE VIEW {{@table}} AS
SELECT snapshot, * EXCLUDE (snapshot)
FROM read_parquet(
    kgdiff_store_files({{files}}),
    hive_partitioning = true,
    hive_types = {'snapshot': VARCHAR},
    hive_types_autocast = false
)
UNION ALL
SELECT carry.delta AS snapshot, layer_rows.* EXCLUDE (snapshot)
FROM read_parquet(
    kgdiff_store_files({{carried_files}}),
    hive_partitioning = true,
    hive_types = {'snapshot': VARCHAR},
    hive_types_autocast = false
) AS layer_rows
JOIN (
    SELECT unnest({{carry_deltas}}::VARCHAR[]) AS delta,
           unnest({{carry_layers}}::VARCHAR[]) AS layer
) AS carry ON carry.layer = layer_rows.snapshot
ANTI JOIN (
    SELECT mask.delta, mask.layer, changed.qid
    FROM read_parquet(
        kgdiff_store_files({{change_files}}),
        hive_partitioning = true,
        hive_types = {'snapshot': VARCHAR},
        hive_types_autocast = false
    ) AS changed
    JOIN (
        SELECT unnest({{mask_deltas}}::VARCHAR[]) AS delta,
               unnest({{mask_layers}}::VARCHAR[]) AS layer,
               unnest({{mask_by}}::VARCHAR[]) AS by_snapshot
    ) AS mask ON mask.by_snapshot = changed.snapshot
) AS hidden
    ON hidden.delta = carry.delta AND hidden.layer = carry.layer
   AND hidden.qid = layer_rows.{{@key}};
