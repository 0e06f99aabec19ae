-- name: chain_walk
-- purpose: A stage of sql/chains/chains.sql: the chains of 2 .. $max_hops hops over
--          the hops of `chain_edges` (sql/chains/chain_edges.sql). Every hop but the last is
--          single-valued; no entity repeats; pid p2 may follow p1 only if $relations allows it;
--          a chain starts at one of $subjects (all when empty) with one of $first_pids (every
--          key of $relations when empty). The walk carries each chain's edge numbers, not its
--          hops (their structs at every step held 420 MB at 3 × 50 M statements). One row per
--          chain: `chain` (a number), `origin`, `hops` (the hops' structs in order) and
--          `answers` (its last hop's).
-- params: $relations (MAP(VARCHAR, VARCHAR[])); $subjects (a list, or one id as a string;
--         empty = all); $first_pids (VARCHAR[]); $max_hops (INTEGER >= 2). Reads the relation
--         `chain_edges`.
WITH RECURSIVE
links AS (
    SELECT entry.key AS pid, unnest(entry.value) AS next_pid
    FROM (SELECT unnest(map_entries(CAST($relations AS MAP(VARCHAR, VARCHAR[])))) AS entry)
),
start_subjects AS (
    -- the start subjects, given as a list or as one id in a string (the macro takes both):
    -- the text of either, brackets, quotes and spaces taken out, split at commas
    SELECT list_filter(
        string_split(regexp_replace(CAST($subjects AS VARCHAR), '[\[\]\s'']', '', 'g'), ','),
        lambda x: x <> ''
    ) AS ids
),
walk AS (
    -- (`chain_edges` read itself at each use: a CTE over it, read three times, was
    -- materialised whole, hop structs and all, and ran out of 1 GB at 3 × 100 M statements)
    -- the chains as lists of edge numbers, each with the entities it visited and its last
    -- hop's relation (what the next hop may follow)
    SELECT e.subject AS origin, [e.subject, e.hop.object] AS visited, [e.edge] AS path,
           e.pid AS last_pid, e.single
    FROM chain_edges AS e
    CROSS JOIN start_subjects
    WHERE e.single
      AND e.hop.object <> e.subject
      AND e.pid IN (SELECT pid FROM links)
      AND (len(CAST($first_pids AS VARCHAR[])) = 0
           OR list_contains(CAST($first_pids AS VARCHAR[]), e.pid))
      AND (len(start_subjects.ids) = 0 OR list_contains(start_subjects.ids, e.subject))
    UNION ALL
    SELECT w.origin, list_append(w.visited, e.hop.object), list_append(w.path, e.edge),
           e.pid, e.single
    -- chain_edges first, the walk last: with build_side_probe_side off (kgdiff's
    -- temporal/chains.py runs this stage so) the hash table is built on the few chains
    -- walked, not on every hop (8.9 M hops ran out of 1 GB at 3 x 200 M statements)
    FROM chain_edges AS e
    JOIN (
        SELECT w.*, l.next_pid
        FROM walk AS w
        JOIN links AS l ON l.pid = w.last_pid
        WHERE w.single AND len(w.path) < CAST($max_hops AS INTEGER)
    ) AS w ON e.subject = w.visited[-1] AND e.pid = w.next_pid
    WHERE NOT list_contains(w.visited, e.hop.object)
),
chained AS (
    -- each chain of two hops or more with its hops and its last hop's answers
    SELECT
        p.chain,
        any_value(p.origin) AS origin,
        list(e.hop ORDER BY p.i) AS hops,
        arg_max(e.answers, p.i) AS answers
    FROM (
        SELECT c.chain, c.origin, unnest(c.path) AS edge, generate_subscripts(c.path, 1) AS i
        FROM (
            SELECT row_number() OVER () AS chain, w.origin, w.path
            FROM walk AS w
            WHERE len(w.path) >= 2
        ) AS c
    ) AS p
    JOIN chain_edges AS e ON e.edge = p.edge
    GROUP BY p.chain
)
SELECT * FROM chained;
