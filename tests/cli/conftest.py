import sys
from pathlib import Path

# Shared command cases (cli_cases.py) are importable from every CLI test module.
sys.path.insert(0, str(Path(__file__).parent))
