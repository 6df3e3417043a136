"""The rook/1 conversation, pure: the messages the referee builds, reply checking, records, transcripts."""

VERSION = "rook/1"  # the protocol this package speaks, on both sides
