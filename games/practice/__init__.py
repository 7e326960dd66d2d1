"""The practice opponent (issue 28): GNU Backgammon as a player account that rolls, moves,
doubles, takes and drops through the same services and server dice as a person."""
