"""Screens of the terminal app."""

#: The name the collection browser is installed under (imported without loading the browser).
COLLECTION_SCREEN = "collection"
