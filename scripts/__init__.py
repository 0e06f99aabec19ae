"""The checkout's own scripts (``make lint``, ``make docs``), run as files; a package so that
the tests can import them."""
