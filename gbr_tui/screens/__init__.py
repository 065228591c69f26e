"""Screens of the terminal app."""

#: The name the collection browser is installed under (imported without loading the browser).
COLLECTION_SCREEN = "collection"
#: Bindings that open files of the machine gbr-tui runs on: never offered when served.
HOST_FILE_BINDINGS = frozenset({"editor.open_collection", "editor.show_collection", "collection.open"})
