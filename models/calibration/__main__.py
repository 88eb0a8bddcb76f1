"""Manual re-derivation of the seed systems' profiles: ``uv run python -m models.calibration [--write]``."""

import sys

from models.calibration.catalog_text import calibrate_seed_systems

calibrate_seed_systems(write="--write" in sys.argv)
