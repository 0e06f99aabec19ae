"""Download dumps with resume and verify their published checksums before anything reads them."""
