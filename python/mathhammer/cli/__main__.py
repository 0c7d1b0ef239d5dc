"""``python -m mathhammer.cli``: the ``mathhammer`` command."""

import sys

from mathhammer.cli.app import main

if __name__ == "__main__":
    sys.exit(main())
