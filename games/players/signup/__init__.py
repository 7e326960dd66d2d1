"""Players who sign themselves up (issue 30): the club's setting (off, open, approved by
staff), the sign-up with its e-mail confirmation, a claim of an existing player that only
staff grant, and staff's decisions. ``services.py`` writes, ``selectors.py`` reads,
``pages.py`` and ``api.py`` are the two doors, ``mails.py`` the e-mails, ``tasks.py`` the
sweep of sign-ups never confirmed."""
