"""fatezoo.training: the ``fatezoo`` command line, arena and ratings, benchmarks.

Modules:
    cli: the ``fatezoo`` console script (``list``, ``play``, ``replay``, ``arena``, ``bench``).
    arena: batched round robins of agents with win-rate matrices and ratings.
    bench: steps/s of the batched core, the AEC loop, the gym wrapper and references.
    play: a person against agents in the terminal.
    replay: replays a saved game record (JSON) step by step.
    progress: a tiny dependency-free progress bar.
"""
