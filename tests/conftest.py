import os
import sys
from pathlib import Path

# Shared test helpers (tests/casedata.py) are importable from every game's folder.
sys.path.insert(0, str(Path(__file__).parent))

# In CI, hypothesis draws the same examples every run: a red build always means a real regression
# that reproduces. Locally it keeps exploring new examples.
if os.environ.get("CI"):
    from hypothesis import settings

    settings.register_profile("ci", derandomize=True, deadline=None, print_blob=True)
    settings.load_profile("ci")
