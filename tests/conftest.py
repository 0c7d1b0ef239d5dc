import sys
from pathlib import Path

# Shared test helpers (tests/casedata.py) are importable from every game's folder.
sys.path.insert(0, str(Path(__file__).parent))
