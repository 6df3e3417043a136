"""The rook/1 conversation, pure: the messages the referee builds, reply checking, records, transcripts."""
