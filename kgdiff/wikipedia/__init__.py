"""Wikipedia snapshots: pages and revisions from MediaWiki XML dumps, and their evidence."""
