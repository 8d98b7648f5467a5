"""Fatefell training presets: ``TrainOptions`` overrides used by ``fatezoo train fatefell``."""

TRAIN_PRESET: dict = {}
