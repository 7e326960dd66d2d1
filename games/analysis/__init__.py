"""GNU Backgammon's analysis of finished matches (issue 28): the job, run on Celery's
``analysis`` queue, never in a web process.

The figures it stores are gnubg's own (``games.models.analysis`` defines the terms); the
read side (averages, PR class, the history chart) is :mod:`games.ratings.performance`, so
the pages below this package in the layers can show it.
"""
