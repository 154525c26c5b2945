"""The sleeper's build step: note when it was built (the bot arms itself a while after)."""

import time
from pathlib import Path

(Path(__file__).parent / "built").write_text(f"{time.time()}\n")
