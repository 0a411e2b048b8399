"""Random-playout engines: flat Monte Carlo (``montecarlo.py``) and the exact brute force over all
fill-ins (``bruteforce.py``), sharing the jitted inner loops of ``kernel.py``."""
