import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "tests"))
sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "tests" / "killteam"))  # synthetic_teams
sys.path.insert(0, str(Path(__file__).resolve().parent))  # the yardsticks (numpy_shot)
