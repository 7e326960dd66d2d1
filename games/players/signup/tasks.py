"""Beat's sweep of sign-ups never confirmed (``games.signup_sweep``, hourly; settings)."""

from __future__ import annotations

from celery import shared_task

from games.players.signup.services import signups_expire


@shared_task(name="games.signup_sweep", ignore_result=True)
def signup_sweep() -> int:
    return signups_expire()
