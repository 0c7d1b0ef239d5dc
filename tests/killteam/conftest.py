import sys
from pathlib import Path

# The plain references (fight_reference.py, the brute-force helpers of test_shoot_brute.py) are
# importable from this folder's tests.
sys.path.insert(0, str(Path(__file__).parent))
