"""The core shared by every fatezoo game: records, RNG, kernels and adapters."""

from .aec import FatezooAEC
from .registry import game_names, get_module, get_spec
from .spec import EvalSettings, GameSpec, IllegalActionError
from .vector import VecEnv

__all__ = ["EvalSettings", "FatezooAEC", "GameSpec", "IllegalActionError", "VecEnv",
           "game_names", "get_module", "get_spec"]
