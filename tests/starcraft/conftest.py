import sys
from pathlib import Path

# The scenario generator (sc_scenarios.py) is shared by this folder's tests.
sys.path.insert(0, str(Path(__file__).parent))
