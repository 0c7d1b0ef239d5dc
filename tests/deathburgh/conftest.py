import sys
from pathlib import Path

# The plain reference implementation (db_reference.py) is importable from this folder's tests.
sys.path.insert(0, str(Path(__file__).parent))
