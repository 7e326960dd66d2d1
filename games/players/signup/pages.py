"""The sign-up's pages (issue 30), phone first: the form (``/accounts/signup/``), what
happens next with the resend form, the confirmation link's page, and staff's list of the
sign-ups waiting (``/accounts/signups/``) with approve and refuse.

Every post that makes a login or sends an e-mail (sign-up, resend) is throttled per client
address (:mod:`games.players.signup.throttles`) and refused with a 429 page and
``Retry-After``, before anything is checked.
"""

from __future__ import annotations

from typing import Any

from django import forms
from django.conf import settings
from django.contrib import messages
from django.contrib.auth import login
from django.contrib.auth.decorators import login_required
from django.contrib.auth.validators import UnicodeUsernameValidator
from django.http import Http404, HttpRequest, HttpResponse, HttpResponseRedirect
from django.shortcuts import render
from django.urls import reverse
from django.utils import translation
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy
from django.views.decorators.http import require_POST

from games.errors import ApplicationError
from games.models import SignUp, SignupMode
from games.players.signup import mails, selectors, services
from games.players.signup.throttles import signup_attempt_allowed
from games.web import act_and_redirect

#: The session key of the address the last sign-up on this browser went to.
SENT_TO = "signup_sent_to"


def site_url(request: HttpRequest) -> str:
    return settings.SITE_URL or request.build_absolute_uri("/")


class SignupForm(forms.Form):
    name = forms.CharField(
        label=gettext_lazy("Your name, as the club should show it"),
        max_length=200,
        help_text=gettext_lazy("As on the club's result sheets, e.g. Kiss Anna."),
        widget=forms.TextInput(attrs={"autocomplete": "name"}),
    )
    # The format of the username and of the address is checked here too, so that a form
    # with several mistakes names them all at once; what needs the database (taken names,
    # a claim, the password validators) is the service's, after these pass.
    username = forms.CharField(
        label=gettext_lazy("Username"),
        max_length=150,
        validators=[UnicodeUsernameValidator()],
        help_text=gettext_lazy("What you type to log in."),
        widget=forms.TextInput(attrs={"autocomplete": "username", "autocapitalize": "none"}),
    )
    email = forms.EmailField(
        label=gettext_lazy("E-mail address"),
        max_length=254,
        widget=forms.EmailInput(attrs={"autocomplete": "email"}),
    )
    password1 = forms.CharField(
        label=gettext_lazy("Password"),
        strip=False,
        widget=forms.PasswordInput(attrs={"autocomplete": "new-password"}),
    )
    password2 = forms.CharField(
        label=gettext_lazy("Password again"),
        strip=False,
        widget=forms.PasswordInput(attrs={"autocomplete": "new-password"}),
    )
    claim = forms.BooleanField(label=gettext_lazy("I am this player"), required=False)

    #: The name of the player the typed name matches, when the form offers the claim.
    claimable_name: str = ""

    def clean(self) -> dict[str, Any]:
        data = super().clean()
        if "password1" in data and "password2" in data and data["password1"] != data["password2"]:
            self.add_error("password2", _("The two passwords differ."))
        if self.errors:
            return data
        try:
            services.signup_check(
                name=data["name"],
                username=data["username"].strip(),
                email=data["email"].strip(),
                password=data["password1"],
                claim=data["claim"],
            )
        except ApplicationError as exc:
            self.refuse(exc)
        return data

    def refuse(self, exc: ApplicationError) -> None:
        field = str(exc.extra.get("field") or "")
        if field == "password":
            field = "password1"
        if exc.extra.get("claimable"):
            player = services.claimable_player(self.cleaned_data.get("name", ""))
            self.claimable_name = player.name if player is not None else ""
        self.add_error(field if field in self.fields else None, str(exc.detail))


def _closed(request: HttpRequest) -> HttpResponse:
    return render(request, "accounts/signup_closed.html", status=404)


def throttled_page(request: HttpRequest, seconds: int) -> HttpResponse:
    """The 429 page, as the login's (``config.security.refusal_page``)."""
    message = _(
        "Too many sign-up attempts from your address. Try again in %(seconds)d seconds."
    ) % {"seconds": seconds}
    response = render(request, "accounts/throttled.html", {"message": message}, status=429)
    response["Retry-After"] = str(seconds)
    return response


def signup_page(request: HttpRequest) -> HttpResponse:
    mode = services.signup_mode()
    if mode == SignupMode.OFF:
        return _closed(request)
    if request.user.is_authenticated:
        return HttpResponseRedirect(reverse("games:lobby"))
    form = SignupForm(request.POST or None)
    if request.method == "POST":
        allowed, wait = signup_attempt_allowed(request)
        if not allowed:
            return throttled_page(request, wait)
        if form.is_valid():
            data = form.cleaned_data
            try:
                made = services.signup_create(
                    name=data["name"],
                    username=data["username"],
                    email=data["email"],
                    password=data["password1"],
                    claim=data["claim"],
                    language=translation.get_language() or settings.LANGUAGE_CODE,
                    site_url=site_url(request),
                )
            except ApplicationError as exc:
                form.refuse(exc)
            else:
                request.session[SENT_TO] = data["email"].strip()
                if not made.mail_sent:
                    messages.error(
                        request,
                        _(
                            "The e-mail could not be sent just now. Ask for it again "
                            "below in a few minutes."
                        ),
                    )
                return HttpResponseRedirect(reverse("signup-sent"))
    return render(
        request,
        "accounts/signup.html",
        {
            "form": form,
            "mode": mode,
            "claim_offered": bool(form.claimable_name),
            "claimable_name": form.claimable_name,
        },
    )


def signup_sent_page(request: HttpRequest) -> HttpResponse:
    """What happens next, and the resend form."""
    mode = services.signup_mode()
    return render(
        request,
        "accounts/signup_sent.html",
        {
            "email": request.session.get(SENT_TO, ""),
            "mode": mode,
            "hours": settings.SIGNUP_CONFIRM_HOURS,
        },
    )


@require_POST
def signup_resend_page(request: HttpRequest) -> HttpResponse:
    allowed, wait = signup_attempt_allowed(request)
    if not allowed:
        return throttled_page(request, wait)
    email = request.POST.get("email", "").strip()[:254]
    services.signup_resend(email=email, site_url=site_url(request))
    if email:
        request.session[SENT_TO] = email
    # The same answer whether or not a sign-up waits there (services.signup_resend).
    messages.success(
        request,
        _(
            "If a sign-up at that address waits for its confirmation, a new link is on "
            "its way (at most one a minute)."
        ),
    )
    return HttpResponseRedirect(reverse("signup-sent"))


def signup_confirm_page(request: HttpRequest, token: str) -> HttpResponse:
    """The link's page. Opening it asks for one press (a mail program that fetches
    links to scan them must not confirm for the person); the press confirms."""
    read = mails.confirmation_read(token)
    if read is None:
        return render(request, "accounts/signup_confirm.html", {"invalid": True}, status=404)
    if request.method != "POST":
        return render(request, "accounts/signup_confirm.html", {"invalid": False, "done": None})
    try:
        confirmed = services.signup_confirm(
            signup_id=read[0], version=read[1], site_url=site_url(request)
        )
    except ApplicationError:
        return render(request, "accounts/signup_confirm.html", {"invalid": True}, status=404)
    signup = confirmed.signup
    if confirmed.now and signup.state == SignUp.State.APPROVED and signup.user is not None:
        # Open sign-up: the person who just proved the address is logged in, once (a
        # link opened again logs nobody in).
        login(request, signup.user, backend="django.contrib.auth.backends.ModelBackend")
        messages.success(
            request,
            _("Welcome, %(name)s: your login is ready and you are logged in.")
            % {"name": signup.name},
        )
        return HttpResponseRedirect(reverse("games:lobby"))
    return render(request, "accounts/signup_confirm.html", {"invalid": False, "done": signup})


@login_required
def signup_list_page(request: HttpRequest) -> HttpResponse:
    if not request.user.is_staff:
        raise Http404
    waiting = list(selectors.signups_waiting())
    records = selectors.claim_records(waiting)
    rows = [(s, records.get(s.claim_id) if s.claim_id else None) for s in waiting]
    return render(
        request,
        "accounts/signup_list.html",
        {
            "rows": rows,
            "recent": selectors.signups_recent(),
            "mode_label": SignupMode(services.signup_mode()).label,
        },
    )


def _version(request: HttpRequest) -> int | None:
    raw = request.POST.get("version", "")
    return int(raw) if raw.isdigit() else None


@login_required
@require_POST
def signup_approve_page(request: HttpRequest, signup_id: int) -> HttpResponse:
    if not request.user.is_staff:
        raise Http404
    return act_and_redirect(
        request,
        lambda: services.signup_approve(
            signup_id=signup_id,
            by=request.user,
            version=_version(request),
            site_url=site_url(request),
        ),
        to=reverse("signup-list"),
        success=lambda s: (
            _("%(name)s's sign-up is approved: they can log in as %(username)s.")
            % {"name": s.name, "username": s.username}
        ),
    )


@login_required
@require_POST
def signup_refuse_page(request: HttpRequest, signup_id: int) -> HttpResponse:
    if not request.user.is_staff:
        raise Http404
    return act_and_redirect(
        request,
        lambda: services.signup_refuse(
            signup_id=signup_id,
            by=request.user,
            version=_version(request),
            site_url=site_url(request),
        ),
        to=reverse("signup-list"),
        success=lambda s: (
            _("%(name)s's sign-up is refused; they were told by e-mail.") % {"name": s.name}
        ),
    )
