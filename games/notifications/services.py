"""Notifications: an open registry of kinds, the one way to tell a player something, the
player's choice of channels per kind, the in-app list, and the sending service behind the
delivery task.

How other code uses it::

    from games.notifications import notify

    notify(recipient=player, kind="your_turn", subject=f"game:{game.pk}:v{game.version}",
           context={"match_id": match.pk, "opponent": other.name})

``notify`` is idempotent on (recipient, kind, subject): the second call with the same key
creates and sends nothing and returns ``None``. Call it inside the service's transaction:
the email and webhook sends are enqueued on commit, so a rolled-back write sends nothing.

Kinds are an open set. An app registers its own when it loads (``AppConfig.ready`` or a
module that ``ready`` imports)::

    register_kind("pairing_published", label=_("Pairing published"),
                  default_channels=("in_app", "email"), render=render_pairing, link=...)

``render(context) -> (title, body)`` is called with the language to use already active; it
must tolerate missing context keys (old rows are rendered again on the pages).

Channels: ``in_app`` (the notification row, listed at /notifications/ with an unread count
in the page header), ``email`` (Django's mail, to the user's address) and ``webhook``
(a POST of JSON to each active :class:`~games.models.Webhook` the club set up for the
kind). Each email or webhook send is a :class:`~games.models.NotificationDelivery` row
with its own status, attempts and last error; failures are listed for the director at
/notifications/failed/ and in the admin. A new in-app notification, and reading one,
tells the recipient's open pages at once (their ``user:<id>`` topic,
:mod:`games.notifications.live`), after commit.

Language: there is no stored language per user, and ``notify`` usually runs in the
request of the *other* player, so the stored title and body (what email and webhooks send)
are rendered in the club's language (``LANGUAGE_CODE``); the pages and the API render
them again in the reader's language.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass
from datetime import timedelta
from typing import Any

from django.conf import settings
from django.db import connections, router, transaction
from django.db.models import Count, Q, QuerySet
from django.urls import reverse
from django.utils import timezone, translation
from django.utils.functional import Promise
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy, ngettext

from games import background
from games.errors import Conflict, NotFound, ValidationFailed
from games.models import Notification, NotificationChannel, NotificationDelivery, Player, Webhook
from games.notifications import live, transports

#: Every channel, in the order the preferences grid shows them.
CHANNELS: tuple[str, ...] = tuple(NotificationChannel.values)
IN_APP = NotificationChannel.IN_APP.value
EMAIL = NotificationChannel.EMAIL.value
WEBHOOK = NotificationChannel.WEBHOOK.value

#: A delivery still pending this long after its last attempt lost its task (a worker
#: died, Redis lost the message): the sweeper enqueues it again. Longer than the longest
#: retry back-off (``retry_backoff_max`` in ``games.notifications.tasks``), so a delivery
#: waiting for its retry is left alone.
STALE_AFTER = timedelta(minutes=20)

#: The registered names of the send tasks (:mod:`games.notifications.tasks`).
DELIVER = "games.notification_deliver"
DELIVER_EACH = "games.notification_deliver_each"

_CODE = re.compile(r"^[a-z][a-z0-9_]{0,39}$")

Render = Callable[[Mapping[str, Any]], tuple[str, str]]
Link = Callable[[Mapping[str, Any]], str]


# ====================================================================== the registry
@dataclass(frozen=True)
class NotificationKind:
    """One kind of notification: its stable code, its name for people, the channels a
    player gets until they choose, how to render a title and body from the context,
    and (optionally) the page it points to."""

    code: str
    label: str | Promise
    default_channels: tuple[str, ...]
    render: Render
    link: Link | None = None


class UnknownNotificationKind(LookupError):
    """A programming error: ``notify`` was called with a kind nobody registered."""


_KINDS: dict[str, NotificationKind] = {}


def register_kind(
    code: str,
    *,
    label: str | Promise,
    default_channels: Iterable[str],
    render: Render,
    link: Link | None = None,
) -> NotificationKind:
    """Add a kind to the registry (once per process, when its app loads)."""
    if not _CODE.match(code):
        raise ValueError(f"notification kind code {code!r}: lowercase letters, digits, _")
    if code in _KINDS:
        raise ValueError(f"notification kind {code!r} is already registered")
    channels = tuple(default_channels)
    unknown = set(channels) - set(CHANNELS)
    if unknown:
        raise ValueError(f"notification kind {code!r}: unknown channels {sorted(unknown)}")
    kind = NotificationKind(
        code=code,
        label=label,
        default_channels=tuple(c for c in CHANNELS if c in channels),
        render=render,
        link=link,
    )
    _KINDS[code] = kind
    return kind


def notification_kind(code: str) -> NotificationKind:
    try:
        return _KINDS[code]
    except KeyError:
        raise UnknownNotificationKind(code) from None


def notification_kinds() -> list[NotificationKind]:
    """Every registered kind, in registration order."""
    return list(_KINDS.values())


# ====================================================================== notify
def notify(
    *, recipient: Player, kind: str, subject: str, context: dict[str, Any]
) -> Notification | None:
    """Tell ``recipient`` about ``subject`` once, on the channels they chose for ``kind``.

    Returns the new notification, or ``None`` when (recipient, kind, subject) was already
    notified. Creates the in-app row (listed when the player keeps ``in_app`` for the kind
    and has a login), an email delivery (when they chose email and have an address) and
    one webhook delivery per active webhook set up for the kind (when they chose webhook);
    each delivery's send task is enqueued when the surrounding transaction commits.

    Cost when nothing is sent by email or webhook (the defaults of the game kinds): one
    ``INSERT ... ON CONFLICT DO NOTHING``."""
    return notify_all([Notice(recipient=recipient, kind=kind, subject=subject, context=context)])[0]


@dataclass(frozen=True)
class Notice:
    """One thing to tell one player: the arguments of :func:`notify`."""

    recipient: Player
    kind: str
    subject: str
    context: dict[str, Any]


def notify_all(notices: Sequence[Notice]) -> list[Notification | None]:
    """:func:`notify` for several notices at once (a flag tells both players): one
    ``INSERT`` for all the rows and one for all their deliveries. The result is in the
    order of ``notices``; ``None`` where the key was already notified (or repeated in
    ``notices``). The recipients' ``user`` should be loaded when they may get email."""
    pending: list[tuple[int, Notification, set[str]]] = []
    keys: set[tuple[int, str, str]] = set()
    for i, notice in enumerate(notices):
        spec = notification_kind(notice.kind)
        subject = notice.subject
        if not subject or len(subject) > Notification._meta.get_field("subject").max_length:
            raise ValueError(f"notification subject {subject!r}: 1 to 100 characters")
        key = (notice.recipient.pk, notice.kind, subject)
        if key in keys:
            continue
        keys.add(key)
        recipient = notice.recipient
        channels = set(channels_chosen(recipient.notification_channels, notice.kind))
        with translation.override(settings.LANGUAGE_CODE):
            title, body = spec.render(notice.context)
        notification = Notification(
            recipient=recipient,
            kind=notice.kind,
            subject=subject,
            context=notice.context,
            title=title[: Notification._meta.get_field("title").max_length],
            body=body,
            in_app=IN_APP in channels and recipient.user_id is not None,
            created_at=timezone.now(),
        )
        pending.append((i, notification, channels))
    found: list[Notification | None] = [None] * len(notices)
    if not pending:
        return found
    # savepoint=False: inside the caller's transaction this costs nothing; outside one,
    # the rows and their deliveries still commit together.
    with transaction.atomic(savepoint=False):
        inserted = _insert_once([n for _, n, _ in pending])
        listed: list[int | None] = []  # the users whose list and unread count changed
        deliveries: list[NotificationDelivery] = []
        webhooks: list[Webhook] | None = None
        for (i, notification, channels), new in zip(pending, inserted, strict=True):
            if not new:
                continue
            found[i] = notification
            if notification.in_app:
                listed.append(notification.recipient.user_id)
            if WEBHOOK in channels and webhooks is None:
                webhooks = list(Webhook.objects.filter(is_active=True).only("pk", "kinds"))
            deliveries += _deliveries_for(notification, channels, webhooks or [])
        if deliveries:
            NotificationDelivery.objects.bulk_create(deliveries)
            if len(deliveries) == 1:
                background.task(DELIVER).delay_on_commit(deliveries[0].pk)
            else:
                background.task(DELIVER_EACH).delay_on_commit([d.pk for d in deliveries])
        live.user_changed(*listed)
    return found


def _insert_once(notifications: Sequence[Notification]) -> list[bool]:
    """Insert each row unless its (recipient, kind, subject) exists; ``True`` where it
    was inserted (the keys must differ from each other).

    One statement, ``INSERT ... ON CONFLICT DO NOTHING RETURNING ...`` (PostgreSQL, and
    SQLite for the local run), instead of ``get_or_create``'s SELECT, savepoint, INSERT
    and release per row: ``notify`` runs on every turn of every online game. A concurrent
    insert of the same key waits for the first to commit, then inserts nothing."""
    meta = Notification._meta
    connection = connections[router.db_for_write(Notification)]
    qn = connection.ops.quote_name
    fields = [f for f in meta.concrete_fields if not f.primary_key]
    key_fields = [meta.get_field(name) for name in ("recipient", "kind", "subject")]
    row = f"({', '.join(['%s'] * len(fields))})"
    sql = (
        f"INSERT INTO {qn(meta.db_table)} ({', '.join(qn(f.column) for f in fields)}) "  # noqa: S608 - identifiers from the model, quoted
        f"VALUES {', '.join([row] * len(notifications))} "
        f"ON CONFLICT ({', '.join(qn(f.column) for f in key_fields)}) DO NOTHING "
        f"RETURNING {qn(meta.pk.column)}, {', '.join(qn(f.column) for f in key_fields)}"
    )
    params = [
        f.get_db_prep_save(getattr(n, f.attname), connection) for n in notifications for f in fields
    ]
    with connection.cursor() as cursor:
        cursor.execute(sql, params)
        ids = {tuple(found[1:]): found[0] for found in cursor.fetchall()}
    inserted = []
    for notification in notifications:
        pk = ids.get((notification.recipient_id, notification.kind, notification.subject))
        if pk is not None:
            notification.pk = pk
            notification._state.adding = False
            notification._state.db = connection.alias
        inserted.append(pk is not None)
    return inserted


def _deliveries_for(
    notification: Notification, channels: set[str], webhooks: Iterable[Webhook]
) -> list[NotificationDelivery]:
    deliveries = []
    if EMAIL in channels and _email_address(notification.recipient):
        deliveries.append(NotificationDelivery(notification=notification, channel=EMAIL))
    if WEBHOOK in channels:
        deliveries.extend(
            NotificationDelivery(notification=notification, channel=WEBHOOK, webhook=hook)
            for hook in webhooks
            if notification.kind in (hook.kinds or [])
        )
    return deliveries


def _email_address(player: Player) -> str:
    return (player.user.email or "") if player.user_id is not None else ""


# ====================================================================== channels per kind
def channels_chosen(choices: Mapping[str, Any] | None, kind: str) -> list[str]:
    """The channels for ``kind`` given a player's stored choices (the value of
    ``Player.notification_channels``, which callers may have loaded with other rows):
    their choice, or the kind's default where they made none. No query."""
    spec = notification_kind(kind)
    chosen = choices.get(kind) if isinstance(choices, Mapping) else None
    if isinstance(chosen, list):
        return [c for c in CHANNELS if c in chosen]
    return list(spec.default_channels)


def player_notification_channels(player: Player) -> dict[str, list[str]]:
    """``{kind: [channel, ...]}`` for every registered kind: the player's choice, or the
    kind's default where they made none."""
    return {code: channels_chosen(player.notification_channels, code) for code in _KINDS}


def player_set_notification_channels(
    *, player: Player, channels: Mapping[str, Iterable[str]]
) -> dict[str, list[str]]:
    """Replace the player's choices with ``channels`` (``{kind: [channel, ...]}``; a kind
    left out goes back to its default) and return the result. An unknown kind or channel
    is refused (``unknown_notification_kind``, ``unknown_notification_channel``) and
    nothing changes."""
    if not isinstance(channels, Mapping):
        raise ValidationFailed(
            "invalid_notification_channels",
            _("Give the channels as a mapping from kind to a list of channels."),
        )
    cleaned: dict[str, list[str]] = {}
    for kind, chosen in channels.items():
        if kind not in _KINDS:
            raise ValidationFailed(
                "unknown_notification_kind",
                _("There is no kind of notification called “%(kind)s”.") % {"kind": kind},
                extra={"kind": kind},
            )
        if isinstance(chosen, str | bytes) or not isinstance(chosen, Iterable):
            raise ValidationFailed(
                "invalid_notification_channels",
                _("Give the channels as a mapping from kind to a list of channels."),
                extra={"kind": kind},
            )
        chosen = list(chosen)
        for channel in chosen:
            if channel not in CHANNELS:
                raise ValidationFailed(
                    "unknown_notification_channel",
                    _("There is no channel called “%(channel)s”.") % {"channel": channel},
                    extra={"kind": kind, "channel": channel},
                )
        cleaned[kind] = [c for c in CHANNELS if c in chosen]
    Player.objects.filter(pk=player.pk).update(notification_channels=cleaned)
    player.notification_channels = cleaned
    return player_notification_channels(player)


# ====================================================================== in-app list
def notification_list(*, player: Player, unread_only: bool = False) -> QuerySet[Notification]:
    """The player's in-app notifications, newest first."""
    notifications = Notification.objects.filter(recipient=player, in_app=True)
    if unread_only:
        notifications = notifications.filter(read_at__isnull=True)
    return notifications.order_by("-created_at", "-id")


def notification_unread_count(*, player: Player) -> int:
    return notification_list(player=player, unread_only=True).count()


def notification_unread_count_for_user(*, user_id: int) -> int | None:
    """The header's badge: the unread count of the user's player in one query, ``None``
    when the user has no player."""
    found = notification_header_for_user(user_id=user_id)
    return None if found is None else found[1]


def notification_header_for_user(*, user_id: int) -> tuple[int, int] | None:
    """What every page's header shows of the user's player, in one query: the player's
    id (the "My page" link) and their unread count; ``None`` when the user has no player."""
    counts = (
        Player.objects.filter(user_id=user_id)
        .order_by()
        .annotate(
            unread=Count(
                "notifications",
                filter=Q(notifications__read_at__isnull=True, notifications__in_app=True),
            )
        )
        .values_list("pk", "unread")
    )
    found = list(counts[:1])
    return (found[0][0], found[0][1]) if found else None


def notification_mark_read(*, notification_id: int, player: Player) -> Notification:
    """Mark one of the player's notifications read (again is harmless); another's or a
    missing one is 404 ``notification_not_found``."""
    try:
        notification = Notification.objects.get(pk=notification_id, recipient=player)
    except Notification.DoesNotExist:
        raise NotFound(
            "notification_not_found", _("There is no notification with this id.")
        ) from None
    if notification.read_at is None:
        notification.read_at = timezone.now()
        notification.save(update_fields=["read_at"])
        live.user_changed(player.user_id)
    return notification


def notification_mark_all_read(*, player: Player) -> int:
    """Mark every unread notification of the player read; returns how many."""
    count = Notification.objects.filter(recipient=player, read_at__isnull=True).update(
        read_at=timezone.now()
    )
    if count:
        live.user_changed(player.user_id)
    return count


@dataclass(frozen=True)
class NotificationText:
    title: str
    body: str
    url: str


def notification_text(notification: Notification) -> NotificationText:
    """Title, body and link in the active language (the stored text when the kind is no
    longer registered)."""
    spec = _KINDS.get(notification.kind)
    if spec is None:
        return NotificationText(notification.title, notification.body, "")
    title, body = spec.render(notification.context)
    return NotificationText(title, body, _link(spec, notification.context))


def _link(spec: NotificationKind, context: Mapping[str, Any]) -> str:
    return spec.link(context) if spec.link is not None else ""


def _absolute(path: str) -> str:
    base = settings.SITE_URL.rstrip("/")
    return f"{base}{path}" if base and path.startswith("/") else path


# ====================================================================== sending
def notification_delivery_send(*, delivery_id: int) -> str:
    """Send one delivery unless it is no longer pending; returns its status afterwards
    (``sent``, ``failed``, ``pending``) or ``missing``.

    The row is locked for the whole attempt (Zulip's scheduled-message pattern), so two
    tasks for the same delivery run one after the other and the second finds it sent.
    Every attempt is counted and its error kept. A permanent error (a 4xx answer, no
    address) marks the delivery failed at once, a transient one after
    :data:`~games.transports.MAX_DELIVERY_ATTEMPTS` attempts; before that the attempt is
    committed and :class:`~games.transports.TransientDeliveryError` raised, so the task
    retries with back-off."""
    retry: transports.TransientDeliveryError | None = None
    with transaction.atomic():
        delivery = (
            NotificationDelivery.objects.select_for_update(of=("self",))
            .select_related("notification__recipient__user", "webhook")
            .filter(pk=delivery_id)
            .first()
        )
        if delivery is None:
            return "missing"
        if delivery.status != NotificationDelivery.Status.PENDING:
            return delivery.status
        now = timezone.now()
        delivery.attempts += 1
        delivery.last_attempt_at = now
        try:
            _send(delivery)
        except transports.PermanentDeliveryError as exc:
            delivery.status = NotificationDelivery.Status.FAILED
            delivery.last_error = str(exc)
        except transports.TransientDeliveryError as exc:
            delivery.last_error = str(exc)
            if delivery.attempts >= transports.MAX_DELIVERY_ATTEMPTS:
                delivery.status = NotificationDelivery.Status.FAILED
            else:
                retry = exc
        else:
            delivery.status = NotificationDelivery.Status.SENT
            delivery.sent_at = now
        delivery.save(
            update_fields=["status", "attempts", "last_error", "last_attempt_at", "sent_at"]
        )
    if retry is not None:
        raise retry
    return delivery.status


def notification_delivery_give_up(*, delivery_id: int, error: str) -> bool:
    """Record a delivery whose task failed in an unexpected way as failed (if it is still
    pending), so the director sees it; ``True`` when it was marked."""
    marked = NotificationDelivery.objects.filter(
        pk=delivery_id, status=NotificationDelivery.Status.PENDING
    ).update(
        status=NotificationDelivery.Status.FAILED,
        last_error=error[:2000],
        last_attempt_at=timezone.now(),
    )
    return marked > 0


def notification_delivery_retry(*, delivery_id: int) -> NotificationDelivery:
    """The director sends a failed delivery again: it is pending with a fresh set of
    attempts, and its task is enqueued on commit. A sent one is 409."""
    with transaction.atomic():
        try:
            delivery = NotificationDelivery.objects.select_for_update().get(pk=delivery_id)
        except NotificationDelivery.DoesNotExist:
            raise NotFound("delivery_not_found", _("There is no delivery with this id.")) from None
        if delivery.status == NotificationDelivery.Status.SENT:
            raise Conflict("delivery_already_sent", _("This notification was already sent."))
        delivery.status = NotificationDelivery.Status.PENDING
        delivery.attempts = 0
        delivery.save(update_fields=["status", "attempts"])
        background.task(DELIVER).delay_on_commit(delivery.pk)
    return delivery


def notification_deliveries_requeue_stale(*, limit: int = 500) -> int:
    """Backstop for lost tasks: enqueue again every delivery pending for longer than
    :data:`STALE_AFTER` since its last attempt (or creation). Running a delivery's task
    twice is harmless, so this may overlap a task that is merely slow."""
    cutoff = timezone.now() - STALE_AFTER
    stale = list(
        NotificationDelivery.objects.filter(status=NotificationDelivery.Status.PENDING)
        .filter(
            Q(last_attempt_at__lt=cutoff) | Q(last_attempt_at__isnull=True, created_at__lt=cutoff)
        )
        .order_by("created_at")
        .values_list("pk", flat=True)[:limit]
    )
    for delivery_id in stale:
        background.task(DELIVER).delay(delivery_id)
    return len(stale)


def notification_delivery_failures(*, limit: int = 200) -> QuerySet[NotificationDelivery]:
    """Failed deliveries for the director, the latest attempt first."""
    return (
        NotificationDelivery.objects.filter(status=NotificationDelivery.Status.FAILED)
        .select_related("notification__recipient", "webhook")
        .order_by("-last_attempt_at", "-id")[:limit]
    )


def _send(delivery: NotificationDelivery) -> None:
    notification = delivery.notification
    spec = _KINDS.get(notification.kind)
    url = _absolute(_link(spec, notification.context)) if spec is not None else ""
    with translation.override(settings.LANGUAGE_CODE):
        if delivery.channel == EMAIL:
            address = _email_address(notification.recipient)
            if not address:
                raise transports.PermanentDeliveryError(_("the recipient has no email address"))
            body = notification.body
            if url:
                body = f"{body}\n\n{url}"
            transports.email_send(
                to=address, subject=f"{settings.CLUB_NAME}: {notification.title}", body=body
            )
        elif delivery.channel == WEBHOOK and delivery.webhook is not None:
            hook = delivery.webhook
            if not hook.is_active:
                raise transports.PermanentDeliveryError(_("the webhook was deactivated"))
            transports.webhook_post(
                url=hook.url, payload=webhook_payload(delivery, url=url), secret=hook.secret
            )
        else:
            raise transports.PermanentDeliveryError(
                _("cannot send on channel %(channel)s") % {"channel": delivery.channel}
            )


def webhook_payload(delivery: NotificationDelivery, *, url: str = "") -> dict[str, Any]:
    """The JSON a webhook receives. ``text`` is the whole message in one string, the
    field chat incoming webhooks (Slack, Mattermost, Rocket.Chat, Google Chat) show,
    escaped for them (:func:`transports.chat_escape`: the names in it are typed by
    people, and must not become mentions or links); ``title``, ``body`` and ``context``
    are the plain text and data, for receivers that format the message themselves.
    ``delivery`` lets a receiver drop a repeat (sending is at least once)."""
    notification = delivery.notification
    recipient = notification.recipient
    text = "\n".join(
        transports.chat_escape(part)
        for part in (notification.title, notification.body, url)
        if part
    )
    return {
        "delivery": delivery.pk,
        "notification": notification.pk,
        "kind": notification.kind,
        "subject": notification.subject,
        "recipient": {"id": recipient.pk, "name": recipient.name},
        "title": notification.title,
        "body": notification.body,
        "url": url,
        "text": text,
        "context": notification.context,
        "created_at": notification.created_at.isoformat(),
    }


# ====================================================================== the core's kinds
# The context the game services pass (every key optional; the text falls back to
# general words, so old rows and partial contexts still render):
#   match (int: the match id, for the link), game (int), number (int: game number),
#   opponent (str: the other player's name);
#   double_offered: cube (int: the value offered); time_low: remaining_ms (int);
#   match_finished: winner (str: a name), score ([5, 3] or "5-3").
# Names, not ids: the text is rendered again when a page lists the row, without queries.


def _name(context: Mapping[str, Any], key: str) -> str | None:
    value = context.get(key)
    return value if isinstance(value, str) and value else None


def _opponent(context: Mapping[str, Any]) -> str:
    return _name(context, "opponent") or _("your opponent")


def _match_link(context: Mapping[str, Any]) -> str:
    match_id = context.get("match", context.get("match_id"))
    if not isinstance(match_id, int) or isinstance(match_id, bool):
        return ""
    return reverse("games:match", kwargs={"match_id": match_id})


def _render_your_turn(context: Mapping[str, Any]) -> tuple[str, str]:
    names = {"opponent": _opponent(context)}
    return (
        _("Your turn against %(opponent)s") % names,
        _("It is your turn in your match against %(opponent)s.") % names,
    )


def _render_double_offered(context: Mapping[str, Any]) -> tuple[str, str]:
    values = {"opponent": _opponent(context), "cube": context.get("cube")}
    title = _("%(opponent)s doubles") % values
    if isinstance(values["cube"], int):
        return title, _("%(opponent)s offers the cube at %(cube)d: take or drop.") % values
    return title, _("%(opponent)s offers a double: take or drop.") % values


def _clock_text(milliseconds: int) -> str:
    seconds = max(0, -(-milliseconds // 1000))  # a started second still counts
    return f"{seconds // 60}:{seconds % 60:02d}"


def _render_time_low(context: Mapping[str, Any]) -> tuple[str, str]:
    remaining = context.get("remaining_ms")
    values = {"opponent": _opponent(context)}
    title = _("Your time is running low")
    if isinstance(remaining, int):
        values["time"] = _clock_text(remaining)
        return title, _("%(time)s of reserve left in your match against %(opponent)s.") % values
    return title, _("Your reserve is nearly gone in your match against %(opponent)s.") % values


def _render_lost_on_time(context: Mapping[str, Any]) -> tuple[str, str]:
    values = {"opponent": _opponent(context)}
    return (
        _("You lost on time"),
        _("Your time ran out in your match against %(opponent)s.") % values,
    )


def _render_win_claimable(context: Mapping[str, Any]) -> tuple[str, str]:
    values = {"opponent": _opponent(context)}
    return (
        _("%(opponent)s ran out of time") % values,
        _("The time of %(opponent)s is up: claim the win on the match page.") % values,
    )


def _render_match_finished(context: Mapping[str, Any]) -> tuple[str, str]:
    score = context.get("score")
    if isinstance(score, list | tuple):
        score = "\u2013".join(str(points) for points in score)
    values = {"opponent": _opponent(context), "winner": _name(context, "winner"), "score": score}
    title = _("Your match against %(opponent)s is over") % values
    if values["winner"] and score:
        return title, _("%(winner)s won, %(score)s.") % values
    if values["winner"]:
        return title, _("%(winner)s won.") % values
    return title, _("The match is over.")


def _render_match_invitation(context: Mapping[str, Any]) -> tuple[str, str]:
    values = {"opponent": _opponent(context)}
    title = _("%(opponent)s invites you to a match") % values
    length = context.get("length")
    if length == 0:
        return title, _("A money session: accept or decline it on the match page.")
    if isinstance(length, int) and not isinstance(length, bool):
        return title, ngettext(
            "A %(length)d-point match: accept or decline it on the match page.",
            "A %(length)d-point match: accept or decline it on the match page.",
            length,
        ) % {"length": length}
    return title, _("Accept or decline it on the match page.")


def _render_invitation_answered(context: Mapping[str, Any]) -> tuple[str, str]:
    values = {"opponent": _opponent(context)}
    if context.get("answer") == "accepted":
        return (
            _("%(opponent)s accepted your invitation") % values,
            _("Your match against %(opponent)s has started.") % values,
        )
    return (
        _("%(opponent)s declined your invitation") % values,
        _("Your match against %(opponent)s is called off.") % values,
    )


def _render_invitation_withdrawn(context: Mapping[str, Any]) -> tuple[str, str]:
    values = {"opponent": _opponent(context)}
    return (
        _("%(opponent)s withdrew the invitation") % values,
        _("The match %(opponent)s invited you to is called off.") % values,
    )


register_kind(
    "your_turn",
    label=gettext_lazy("Your turn"),
    # Opt-in: a player at the board sees whose turn it is; a row per turn for everyone
    # would cost every move an INSERT (bench/moves.py). Correspondence players turn it on.
    default_channels=(),
    render=_render_your_turn,
    link=_match_link,
)
register_kind(
    "double_offered",
    label=gettext_lazy("Double offered"),
    default_channels=(IN_APP,),
    render=_render_double_offered,
    link=_match_link,
)
register_kind(
    "time_low",
    label=gettext_lazy("Time running low"),
    default_channels=(IN_APP,),
    render=_render_time_low,
    link=_match_link,
)
register_kind(
    "lost_on_time",
    label=gettext_lazy("Lost on time"),
    default_channels=(IN_APP, EMAIL),
    render=_render_lost_on_time,
    link=_match_link,
)
register_kind(
    "win_claimable",
    label=gettext_lazy("Win on time to claim"),
    default_channels=(IN_APP, EMAIL),
    render=_render_win_claimable,
    link=_match_link,
)
register_kind(
    "match_finished",
    label=gettext_lazy("Match finished"),
    default_channels=(IN_APP, EMAIL),
    render=_render_match_finished,
    link=_match_link,
)
register_kind(
    "match_invitation",
    label=gettext_lazy("Invitation to a match"),
    default_channels=(IN_APP, EMAIL),
    render=_render_match_invitation,
    link=_match_link,
)
register_kind(
    "invitation_answered",
    label=gettext_lazy("Answer to your invitation"),
    default_channels=(IN_APP,),
    render=_render_invitation_answered,
    link=_match_link,
)
register_kind(
    "invitation_withdrawn",
    label=gettext_lazy("Invitation withdrawn"),
    default_channels=(IN_APP,),
    render=_render_invitation_withdrawn,
    link=_match_link,
)
