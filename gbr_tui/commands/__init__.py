"""Sub-commands of the gbr-tui command line, one module each."""
