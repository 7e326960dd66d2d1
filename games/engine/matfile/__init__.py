"""The Jellyfish / GNU Backgammon ``.mat`` match file: export and validated import (R1).

A ``.mat`` file is the plain-text match record that GNU Backgammon (``import mat``),
eXtreme Gammon and most other backgammon programs read and write. This package turns a
:class:`~games.engine.matfile.record.MatchRecord` (players, match length, each game's
engine ``Action`` log; ``record.py``) into that text
(:func:`~games.engine.matfile.write.export_mat`, ``write.py``) and back
(:func:`~games.engine.matfile.read.import_mat`, ``read.py``). It is pure: text in, text
out, no files. This docstring is the format as both sides know it.

The layout, as gnubg 1.07 writes and reads it (checked by running Debian's gnubg)::

    ; [Event "Club night"]                      optional ``; [Key "value"]`` header lines
    ; [EventDate "2026.11.29"]

     5 point match                              0 = a money session

     Game 1
     Alice : 0                      Bob : 0     the score at the start of the game
      1) 31: 8/5 6/5                 62: 24/18 13/11
      2) 64: 13/7* 13/9              66:        a roll with no legal move: no moves
      3)  Doubles => 2                Takes
      4) 64: 24/18 18/14             ...
          Wins 1 point                          in the winner's column

Decisions (each checked against gnubg, see ``tests/games/engine/test_matfile_gnubg.py``):

* **Columns are players**: player 0 is the left column and the first name, player 1 the
  right column. A line holds one action of each; the actions of a game alternate between
  the players (roll-and-play, double, take/drop, beaver), so when player 1 starts the
  first line has an empty left column, as gnubg writes it.
* **The opening roll** (R3) is written as the starter's first roll, larger die first; tied
  opening rolls are not written (the format has no place for them). On import the
  starter is the column of the first roll, and the dice become the engine's
  ``opening_roll`` action (``[player 0's die, player 1's die]``).
* **Moves** are written like gnubg: one ``from/to`` per die in the order played, ``25``
  for the bar, ``0`` for off and ``*`` on a hit (``25/21* 21/15``). On import any
  notation :func:`~games.engine.notation.parse_play` reads is accepted (``bar/21``,
  ``6/off``, ``8/5(2)``, ``24/18/13``, consolidated ``11/4``) and matched to the legal
  plays **by the resulting position**, never by the string.
* **A roll with no legal move** is the roll with nothing after it (``65:``). A roll with
  no moves written although a play exists is accepted only when the game then ends by
  resignation (the roller resigned after rolling) or the play is forced (gnubg's rule).
* **Cube**: ``Doubles => 2`` (the new cube value), ``Takes``, ``Drops``; in money play a
  beaver is ``Beavers => 4`` (gnubg reads it as a redouble and an implied take).
  The Crawford game needs no mark: like gnubg, the import applies the Crawford rule (R11)
  in every match, and the engine refuses a double in the Crawford game.
* **The end of a game** is ``Wins N point(s)`` in the winner's column, after a bear-off,
  a drop or an accepted resignation. A resignation is not written otherwise: a ``Wins``
  line while the game is still being played *is* the resignation (of the other player,
  single/gammon/backgammon by ``N`` = cube x 1/2/3, gnubg's reading). Declined
  resignations leave no trace. A timeout claimed for a gammon (R12) is written as the
  ``Wins`` line it scores and reads back as a resigned gammon; a match lost on time has
  no representation (``mat_unsupported``; for an analysis, ``forfeit_unfinished`` writes
  its last game without an end).
* **Money sessions** are ``0 point match`` (gnubg writes and reads that); Jacoby and
  beavers are written as ``; [Jacoby "On"]`` / ``; [Beaver "On"]`` (XG's header lines;
  our import reads them, gnubg ignores them and scores with its own ``set jacoby``).
  Automatic doubles can't be written (``mat_unsupported`` when one happened).
* **Variants**: ``standard`` and ``nackgammon`` (``; [Variation "NackGammon"]``).
  Acey-Deucey, custom starts and the rule options that change which plays are legal or
  what a game scores (``max_checkers_per_point``, ``min_pip_waste``,
  ``backgammon_value`` other than 3) are refused (``mat_unsupported``): gnubg would
  read such a file with other rules.
* An **unfinished last game** (a live match) is exported without a ``Wins`` line and
  imported with ``winner=None`` (a roll waiting for a forced play reads back played).

What gnubg 1.07 does with such files (found by running it; the export works around the
first two):

* It misreads a ``Wins`` line that follows a line of 15 characters or fewer (it starts a
  phantom game): a line with only the left column keeps gnubg's padding to column 33.
* It reads a roll written without moves as the forced play when there is exactly one
  (even one that ends the game). So a roll followed by a resignation instead of its
  forced play is left out of the export; on import such a roll *is* the forced play.
* It refuses a file whose **last** game has no roll at all (resigned before the opening
  roll): "No game in progress". The same game followed by another one is read. We
  still write it (the file is right, and our import reads it).
* It does read the 1-away leader's post-Crawford double (its own players never make it,
  "dead cube"; the rules allow it, R11), and doubles at double match point.

Import validates everything by replaying it through the engine (R3-R11): each action is
applied to the :class:`~games.engine.game.GameState` of its game (``new_game`` with the
:class:`~games.engine.match.MatchState` at that point of the match), each game's header
score must equal the score the replay reached, and each ``Wins`` line must name the
winner and points the replay produced. The first problem raises :class:`MatError`.

Error codes (``MatError.code``; ``game``/``move``/``player`` say where, 1-based game and
move numbers as in the file; ``cause`` is the engine's code when it refused an action):

``mat_invalid``          the text is not a readable .mat file, or (export) the record is
                         inconsistent with its own actions.
``mat_illegal_action``   an action the rules refuse (an illegal play, a double in the
                         Crawford game, a take without a double, ...).
``mat_result_mismatch``  a ``Wins`` line or a game's header score disagrees with the replay.
``mat_unsupported``      something the format (or gnubg) cannot express.
"""
