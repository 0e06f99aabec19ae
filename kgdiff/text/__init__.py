"""Wikitext to plain text: a fast scanner, an exact mwparserfromhell path, leads and sentences."""
