"""The backgammon rules engine: pure, typed, immutable Python.

No Django, Celery, DRF, gettext or I/O lives here (an import-linter contract enforces
it). Rule numbers (R1-R14) refer to ``docs/rules.md`` in the project's shared documents.
"""
