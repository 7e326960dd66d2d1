"""Money as the site shows it: the currencies it knows (``currencies.py``, pure: their
digits and symbols, shared with the tournaments' payouts) and an amount in the reader's
format (``format.py``, :func:`games.money.format.money_text`)."""
