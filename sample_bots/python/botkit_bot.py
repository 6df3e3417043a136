#!/usr/bin/env python3
"""A rook/1 bot on rookarena.botkit, which does the loop, the handshake, the ids and the flushing."""

from rookarena.botkit import Bot


class Cautious(Bot):
    name = "cautious"

    def choose(self, view, legal):  # view: this seat's view of the hand (PROTOCOL.md §5); legal: the answers
        bids = [action for action in legal if action.startswith("bid ")]
        if bids and len([card for card in view["hand"] if card[1:] in ("14", "13") or card == "ROOK"]) >= 3:
            return bids[0], "three high cards: the lowest bid"  # an action and why (the reply's comment)
        return "pass" if "pass" in legal else self.random.choice(legal)  # self.random: seeded per game


if __name__ == "__main__":
    Cautious().run()
