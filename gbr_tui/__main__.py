"""The ``gbr-tui`` command's entry point; ``python -m gbr_tui`` too."""

import sys

from gbr_tui import startup


def main() -> int:
    startup.pause()
    try:
        from gbr_tui.cli import prepare

        run = prepare(sys.argv[1:])
    except BaseException:  # a usage error exits here
        startup.done()
        raise
    startup.loaded()
    return run()


if __name__ == "__main__":
    sys.exit(main())
