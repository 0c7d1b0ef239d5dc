import sys
from pathlib import Path

# fm_reference.py (the plain brute-force reference) is importable from this folder's tests.
sys.path.insert(0, str(Path(__file__).parent))
