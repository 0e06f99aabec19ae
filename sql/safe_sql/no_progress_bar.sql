-- name: no_progress_bar
-- purpose: Keep DuckDB from drawing its progress bar on the terminal of the process that
--          answers a user's query (the service's log). A connection's own setting, so it is
--          set on the connection rather than in the database's configuration.
-- params: none.
SET enable_progress_bar = false;
