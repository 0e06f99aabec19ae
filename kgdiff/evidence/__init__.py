"""Evidence: the Wikipedia sentences that mention each fact, and the supported filters."""
