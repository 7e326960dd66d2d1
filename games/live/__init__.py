"""Live screens: what changes on the server reaches every open page over a WebSocket.

Terms used across this package and its clients (``static/games/live.js``):

topic
    What a page follows, ``"<kind>:<key>"``: ``match:12`` (an online match, move by
    move), ``flight:5`` (a tournament flight's bracket, pairings and standings),
    ``user:3`` (a user's notifications), ... Each kind is registered by the feature
    that owns it (:func:`games.live.topics.register_topic`) with who may follow it.
versioned topic
    A topic whose events are numbered: each carries its position ``pos`` and the position
    of the event before it, ``prev`` (for a match, ``[game number, game version]``). A
    client that reconnects says the last position it has and is sent what it missed, in
    order and none twice, read back from the authoritative log in the database; when the
    gap is too long to replay it is told to ``resync`` (fetch the state).
changed
    The message of an unversioned topic: "this changed, fetch the fragment again". The
    page's client coalesces them, so a burst of writes costs one fetch.
publish
    Always after the transaction commits (``transaction.on_commit``), never before: one
    ``PUBLISH`` to channels_redis's pub/sub layer (production and the tests), or through
    an event loop for the in-memory layer of the one-command run (games.live.publish;
    bench/live.py measures what the push costs a move).
"""
