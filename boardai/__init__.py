"""boardai: Hex and Connect Four with fast AI engines."""
from boardai._version import __version__

