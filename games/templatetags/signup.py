"""``{% signup_open as on %}``: whether the login page offers "Sign up" (issue 30): the
club's sign-up setting is not off. A tag, so that only the pages that ask read it."""

from __future__ import annotations

from django import template

from games.models import SignupMode
from games.players.signup.services import signup_mode

register = template.Library()


@register.simple_tag
def signup_open() -> bool:
    return signup_mode() != SignupMode.OFF
