"""Sub-commands of the gbr-tui command line, one module each."""

#: Exit statuses: done; some input was bad (the rest was done); a usage error, as argparse's.
EXIT_OK, EXIT_BAD_INPUT, EXIT_USAGE = 0, 1, 2
