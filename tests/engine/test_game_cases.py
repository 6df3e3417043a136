"""The cases of RULES.md §3, and the engine's contract around them, played through the public engine.

Positions are built honestly: a crafted :class:`Deal`, then scripted actions through ``apply``. Two
helpers make that short:

* ``build_deal`` completes partly given hands from the rest of the deck (never handing out the Rook,
  which goes to the nest unless a hand names it; a seat can be kept void in some colours);
* ``play_queues`` plays a hand from one queue of cards per seat. Each seat plays exactly one card per
  trick, so trick *k* is always the *k*-th card of every queue whoever leads it: the crafted deals below
  put the four cards of each trick in one colour (everybody follows, the highest wins), which makes the
  counters each team takes independent of the preset's first leader.

In the deals the bidder (seat 1, left of dealer 0) discards exactly the nest, so it plays the hand it
was dealt. Trump is red unless stated.
"""

from __future__ import annotations

import copy
import dataclasses
import random
from collections.abc import Mapping
from typing import Any

import pytest

from rookarena.engine.actions import PASS, Action, bid, discard, parse_action, play, trump
from rookarena.engine.cards import ROOK, Card, Color, cards_text, parse_cards
from rookarena.engine.game import Deal, Game, Phase, deal_cards
from rookarena.engine.presets import PRESETS
from rookarena.engine.rules import AllPass, FirstLead, Rules
from rookarena.engine.scoring import Outcome
from rookarena.errors import IllegalActionError, RecordError
from rookarena.players import random_action

RED = Color.RED
ALL = "ALL"  # in an expected legal list: every card of the hand
SOURCE_PRESETS = ["tournament", "bidders-nest", "open-nest", "traditional"]
SAME_DECK = ["tournament", "bidders-nest", "open-nest", "traditional", "ten-half"]
BIDS_70_120 = [name for name in PRESETS if PRESETS[name].rules.bids == tuple(range(70, 121, 5))]


def cards(text: str) -> list[Card]:
    return parse_cards(text.split())


def build_deal(rules: Rules, hands: Mapping[int, str], nest: str = "", void: Mapping[int, str] | None = None) -> Deal:
    """The deck split as given, the rest filled in deck order; seats in ``void`` get no card of those colours."""
    void = void or {}
    size = rules.hand_size
    given = {seat: cards(hands.get(seat, "")) for seat in range(4)}
    nest_cards = cards(nest)
    used = {card for hand in given.values() for card in hand} | set(nest_cards)
    pool = [card for card in rules.deck if card not in used and card is not ROOK]
    for seat in sorted(range(4), key=lambda s: s not in void):
        banned = {Color.parse(letter) for letter in void.get(seat, "")}
        for card in list(pool):
            if len(given[seat]) == size:
                break
            if card.color not in banned:
                given[seat].append(card)
                pool.remove(card)
        assert len(given[seat]) == size, f"seat {seat} cannot be filled"
    rest = [*nest_cards, *pool] + ([] if ROOK in used else [ROOK])
    assert len(rest) == rules.nest_size, "the nest does not come out right"
    return Deal(tuple(tuple(given[seat]) for seat in range(4)), tuple(rest))


def queue_deal(queues: Mapping[int, str], nest: str) -> Deal:
    return Deal(tuple(tuple(cards(queues[seat])) for seat in range(4)), tuple(cards(nest)))


def run(game: Game, script: str) -> None:
    """Apply actions written as text, separated by commas: ``"bid 70, pass, pass, pass"``."""
    for text in script.split(","):
        game.apply(parse_action(text.strip()))


def exchange(game: Game, discards: list[Card] | None = None, color: Color = RED) -> None:
    """The bidder's nest exchange, in whichever order the rules give: discard (the nest by default), trump."""
    pending = list(game.nest if discards is None else discards)
    while game.phase in (Phase.DISCARD, Phase.TRUMP):
        if game.phase is Phase.DISCARD:
            game.apply(discard(pending.pop(0)))
        else:
            game.apply(trump(color))
    assert not pending


def play_queues(game: Game, queues: Mapping[int, str]) -> None:
    """Play the rest of the hand, each seat playing the next card of its queue."""
    queue = {seat: cards(text) for seat, text in queues.items()}
    hand = game.hand_number
    while game.hand_number == hand and not game.is_over:
        game.apply(play(queue[game.to_act].pop(0)))
    assert all(not rest for rest in queue.values())


def start_play(rules: Rules, deal: Deal, *, leader: int = 1, color: Color = RED) -> Game:
    """A game at the first lead of ``deal``, led by ``leader``, the bidder having discarded the nest."""
    dealer = (leader - 1) % 4
    game = Game(rules, deals=iter([deal]), first_dealer=dealer)
    # Choose the bidder so that this preset's first leader is ``leader``.
    if rules.first_lead is FirstLead.LEFT_OF_BIDDER:
        run(game, f"pass, pass, pass, bid {rules.bid_min}")  # the dealer bids; its left leads
    else:
        run(game, f"bid {rules.bid_min}, pass, pass, pass")  # the opener bids and leads
    exchange(game, color=color)
    assert game.phase is Phase.PLAY
    assert game.to_act == leader
    return game


def snapshot(game: Game) -> dict[str, Any]:
    """Every piece of game state, copied, to check that a refused action changed nothing."""
    skip = {"rules", "tables", "_rng", "_deals", "_suit_of", "_power"}
    return {name: copy.deepcopy(value) for name, value in vars(game).items() if name not in skip}


def refuse(game: Game, action: Action, message: str) -> None:
    """``action`` must raise IllegalActionError with ``message`` (or starting with it), changing nothing."""
    before = snapshot(game)
    legal = game.legal_actions()
    with pytest.raises(IllegalActionError) as info:
        game.apply(action)
    assert str(info.value).startswith(message), str(info.value)
    assert snapshot(game) == before
    assert game.legal_actions() == legal


def phase(game: Game) -> Phase:
    """The phase, read through a call so that the type checker does not pin it between actions."""
    return game.phase


def legal_text(game: Game) -> list[str]:
    return [str(action) for action in game.legal_actions()]


# -- cases 1-6: what may be played and who wins the trick ------------------------------------------

Step = tuple[str, str | None]  # (card played, the legal cards before it: ALL, None = unchecked, or a list)


@dataclasses.dataclass(frozen=True)
class TrickCase:
    name: str
    hands: dict[int, str]
    void: dict[int, str]
    steps: list[Step]  # from the leader, seat 1, clockwise
    winner: int
    presets: tuple[str, ...] = tuple(PRESETS)
    changes: tuple[tuple[str, Any], ...] = ()


TRICK_CASES = [
    TrickCase(
        "1: ROOK led forces R7; a seat with no red plays anything; the ROOK wins",
        hands={1: "ROOK", 2: "R7 G14", 3: "G5", 0: "R8"},
        void={2: "R", 3: "R"},
        steps=[("ROOK", ALL), ("R7", "R7"), ("G5", ALL), ("R8", None)],
        winner=1,
    ),
    TrickCase(
        "2: R9 led, the lone ROOK is forced",
        hands={1: "R9", 2: "ROOK G14 Y5", 3: "R6", 0: "R8"},
        void={2: "R"},
        steps=[("R9", ALL), ("ROOK", "ROOK"), ("R6", None), ("R8", None)],
        winner=2,
    ),
    TrickCase(
        "2b: with lone_rook_forced off, the lone ROOK may stay",
        hands={1: "R9", 2: "ROOK G14 Y5", 3: "R6", 0: "R8"},
        void={2: "R"},
        steps=[("R9", ALL), ("G14", ALL), ("R6", None), ("R8", None)],
        winner=1,
        presets=("tournament",),
        changes=(("lone_rook_forced", False),),
    ),
    TrickCase(
        "3: G9 led; G5 and ROOK both legal; the ROOK wins",
        hands={1: "G9", 2: "G5 ROOK", 3: "G14", 0: "G10"},
        void={2: "G"},
        steps=[("G9", ALL), ("ROOK", "G5 ROOK"), ("G14", None), ("G10", None)],
        winner=2,
    ),
    TrickCase(
        "3b: with rook_anytime off, the ROOK must wait while green can be followed",
        hands={1: "G9", 2: "G5 ROOK", 3: "G14", 0: "G10"},
        void={2: "G"},
        steps=[("G9", ALL), ("G5", "G5"), ("G14", None), ("G10", None)],
        winner=3,
        presets=("tournament",),
        changes=(("rook_anytime", False),),
    ),
    TrickCase(
        "4: G9 led; void in green holding ROOK, R6, Y3: any card",
        hands={1: "G9", 2: "ROOK R6 Y3", 3: "G10", 0: "G11"},
        void={2: "RG"},
        steps=[("G9", ALL), ("Y3", ALL), ("G10", None), ("G11", None)],
        winner=0,
        presets=("full-deck",),
    ),
    TrickCase(
        "4: G9 led; void in green holding ROOK, R6, Y5: any card",
        hands={1: "G9", 2: "ROOK R6 Y5", 3: "G10", 0: "G11"},
        void={2: "RG"},
        steps=[("G9", ALL), ("Y5", ALL), ("G10", None), ("G11", None)],
        winner=0,
        presets=tuple(name for name in PRESETS if name != "full-deck"),
    ),
    TrickCase(
        "4: with must-trump on, ROOK or R6",
        hands={1: "G9", 2: "ROOK R6 Y3", 3: "G10", 0: "G11"},
        void={2: "RG"},
        steps=[("G9", ALL), ("R6", "R6 ROOK"), ("G10", None), ("G11", None)],
        winner=2,
        presets=("full-deck",),
        changes=(("must_trump", True),),
    ),
    TrickCase(
        "4: with must-trump on, ROOK or R6 (41 cards)",
        hands={1: "G9", 2: "ROOK R6 Y5", 3: "G10", 0: "G11"},
        void={2: "RG"},
        steps=[("G9", ALL), ("ROOK", "R6 ROOK"), ("G10", None), ("G11", None)],
        winner=2,
        presets=tuple(name for name in PRESETS if name != "full-deck"),
        changes=(("must_trump", True),),
    ),
    TrickCase(
        "5: R14, ROOK, R13, G14: the ROOK wins",
        hands={1: "R14", 2: "ROOK", 3: "R13", 0: "G14"},
        void={0: "R"},
        steps=[("R14", ALL), ("ROOK", None), ("R13", None), ("G14", ALL)],
        winner=2,
        presets=tuple(name for name in PRESETS if name != "ten-half"),
    ),
    TrickCase(
        "5: R14, ROOK, R13, G14 under ten-half: R14 wins",
        hands={1: "R14", 2: "ROOK", 3: "R13", 0: "G14"},
        void={0: "R"},
        steps=[("R14", ALL), ("ROOK", None), ("R13", None), ("G14", ALL)],
        winner=1,
        presets=("ten-half",),
    ),
    TrickCase(
        "5: under ten-half the ROOK still beats R10",
        hands={1: "R10", 2: "ROOK", 3: "R9", 0: "G14"},
        void={0: "R"},
        steps=[("R10", ALL), ("ROOK", None), ("R9", None), ("G14", ALL)],
        winner=2,
        presets=("ten-half",),
    ),
    TrickCase(
        "6: G7, Y14, B14, G8 (no trump): G8 wins",
        hands={1: "G7", 2: "Y14", 3: "B14", 0: "G8"},
        void={2: "G", 3: "G"},
        steps=[("G7", ALL), ("Y14", ALL), ("B14", ALL), ("G8", None)],
        winner=0,
    ),
    TrickCase(
        "6: G7, Y14, R5, G13: R5 wins",
        hands={1: "G7", 2: "Y14", 3: "R5", 0: "G13"},
        void={2: "G", 3: "G"},
        steps=[("G7", ALL), ("Y14", ALL), ("R5", ALL), ("G13", None)],
        winner=3,
    ),
]

TRICK_PARAMS = [pytest.param(case, name, id=f"{case.name} [{name}]") for case in TRICK_CASES for name in case.presets]


@pytest.mark.parametrize(("case", "name"), TRICK_PARAMS)
def test_trick_case(case: TrickCase, name: str) -> None:
    rules = dataclasses.replace(PRESETS[name].rules, **dict(case.changes))
    game = start_play(rules, build_deal(rules, case.hands, void=case.void))
    for card_text, expected in case.steps:
        seat = game.to_act
        legal = legal_text(game)
        if expected == ALL:
            assert legal == [f"play {card}" for card in game.hands[seat]]
        elif expected is not None:
            assert legal == [f"play {text}" for text in expected.split()]
        game.apply(play(Card.parse(card_text)))
    trick = game.tricks[-1]
    assert cards_text(trick.cards) == [card for card, _ in case.steps]
    assert (trick.leader, trick.winner) == (1, case.winner)
    assert game.to_act == case.winner  # the winner leads next
    assert game.trick == ()


# -- illegal actions: refused with a message that explains, and nothing changes ----------------------


def test_must_follow_message() -> None:
    rules = PRESETS["tournament"].rules
    game = start_play(rules, build_deal(rules, {1: "G9", 2: "G7 G12 R5"}, void={2: "G"}))
    game.apply(play(Card.parse("G9")))
    refuse(game, play(Card.parse("R5")), "illegal 'play R5' by seat 2: must follow green (holds G7, G12)")
    refuse(game, play(Card.parse("G9")), "illegal 'play G9' by seat 2: seat 2 does not hold G9 (holds R5, ")
    game.apply(play(Card.parse("G12")))
    assert game.to_act == 3


def test_lone_rook_message() -> None:
    rules = PRESETS["tournament"].rules
    game = start_play(rules, build_deal(rules, {1: "R9", 2: "ROOK G14 Y5"}, void={2: "R"}))
    game.apply(play(Card.parse("R9")))
    refuse(game, play(Card.parse("G14")), "illegal 'play G14' by seat 2: must follow red (holds ROOK)")


def test_must_trump_message() -> None:
    rules = dataclasses.replace(PRESETS["open-nest"].rules, must_trump=True)
    game = start_play(rules, build_deal(rules, {1: "G9", 2: "ROOK R6 Y5"}, void={2: "RG"}))
    game.apply(play(Card.parse("G9")))
    refuse(game, play(Card.parse("Y5")), "illegal 'play Y5' by seat 2: void in green, must play trump (holds R6, ROOK)")


def test_refusals_in_every_phase_change_nothing() -> None:
    rules = PRESETS["tournament"].rules
    game = Game(rules, deals=iter([queue_deal(DEAL_85_35, NEST_0)]), first_dealer=0)
    assert game.phase is Phase.BIDDING
    refuse(game, bid(72), "illegal 'bid 72' by seat 1: bids are 70 to 120 in steps of 5")
    refuse(game, play(Card.parse("R14")), "illegal 'play R14' by seat 1: expected a bid or a pass in the bidding phase")
    refuse(game, trump(RED), "illegal 'trump R' by seat 1: expected a bid or a pass")
    run(game, "bid 85, pass, pass, pass")
    assert phase(game) is Phase.DISCARD
    refuse(game, discard(ROOK), "illegal 'discard ROOK' by seat 1: seat 1 does not hold ROOK (holds R6, R7, R12, ")
    refuse(game, PASS, "illegal 'pass' by seat 1: expected a discard in the discard phase")
    refuse(game, trump(RED), "illegal 'trump R' by seat 1: expected a discard")
    exchange_discards = cards(NEST_0)
    for card in exchange_discards:
        game.apply(discard(card))
    assert phase(game) is Phase.TRUMP
    refuse(
        game, discard(Card.parse("R14")), "illegal 'discard R14' by seat 1: expected a trump colour in the trump phase"
    )
    refuse(game, bid(90), "illegal 'bid 90' by seat 1: expected a trump colour")
    game.apply(trump(RED))
    assert phase(game) is Phase.PLAY
    refuse(game, play(Card.parse("R5")), "illegal 'play R5' by seat 1: seat 1 does not hold R5 (holds R12, R14, G5, ")
    refuse(
        game, discard(Card.parse("R14")), "illegal 'discard R14' by seat 1: expected a card to play in the play phase"
    )
    game.apply(play(Card.parse("R14")))
    refuse(game, play(Card.parse("G11")), "illegal 'play G11' by seat 2: must follow red (holds R5, R11)")


def test_refusal_after_the_game_is_over() -> None:
    rules = dataclasses.replace(PRESETS["tournament"].rules, hand_limit=1)
    game = Game(rules, deals=iter([deal_cards(rules, random.Random(5), 0)]), first_dealer=0)
    run(game, "pass, pass, pass, pass")
    assert game.is_over
    assert game.legal_actions() == []
    refuse(game, PASS, "illegal 'pass' by seat ")
    with pytest.raises(IllegalActionError, match=r": the game is over$"):
        game.apply(bid(70))


# -- case 7 and the auction ----------------------------------------------------------------------------


def fresh(name: str, dealer: int = 0, seed: int = 7, rules: Rules | None = None) -> Game:
    rules = rules or PRESETS[name].rules
    deals = iter([deal_cards(rules, random.Random(seed + k), 0) for k in range(3)])
    return Game(rules, deals=deals, first_dealer=dealer)


@pytest.mark.parametrize("name", BIDS_70_120)
def test_case_7_refused_bids(name: str) -> None:
    game = fresh(name)
    refuse(game, bid(72), "illegal 'bid 72' by seat 1: bids are 70 to 120 in steps of 5")
    refuse(game, bid(125), "illegal 'bid 125' by seat 1: bids are 70 to 120 in steps of 5")
    refuse(game, bid(65), "illegal 'bid 65' by seat 1: bids are 70 to 120 in steps of 5")
    game.apply(bid(70))
    refuse(game, bid(70), "illegal 'bid 70' by seat 2: must bid more than the current high bid of 70")
    refuse(game, bid(72), "illegal 'bid 72' by seat 2: bids are 70 to 120")


@pytest.mark.parametrize("name", [*BIDS_70_120, "kentucky"])
def test_case_7_a_pass_is_final(name: str) -> None:
    game = fresh(name)
    low, step = game.rules.bid_min, game.rules.bid_step
    run(game, f"bid {low}, pass, bid {low + step}, pass")
    assert game.to_act == 1  # seat 2 passed and is skipped for good
    game.apply(bid(low + 2 * step))
    assert game.to_act == 3
    game.apply(bid(low + 3 * step))
    assert game.to_act == 1
    seats = [seat for seat, _ in game.auction]
    assert seats == [1, 2, 3, 0, 1, 3]
    game.apply(PASS)
    assert (game.phase in (Phase.DISCARD, Phase.TRUMP), game.bidder, game.high_bid) == (True, 3, low + 3 * step)
    assert all(seat != 2 for seat, _ in game.auction[2:])


@pytest.mark.parametrize("name", PRESETS)
def test_case_7_opener_bids_the_minimum_and_the_rest_pass(name: str) -> None:
    game = fresh(name)
    rules = game.rules
    run(game, f"bid {rules.bid_min}, pass, pass, pass")
    assert (game.bidder, game.high_bid, game.to_act) == (1, rules.bid_min, 1)
    assert len(game.hands[1]) == rules.hand_size + rules.nest_size
    assert set(game.nest) <= set(game.hands[1])
    first = Phase.TRUMP if name == "open-nest" else Phase.DISCARD
    assert game.phase is first


@pytest.mark.parametrize("name", PRESETS)
@pytest.mark.parametrize("bids_before", [0, 1, 2])
def test_case_7_the_maximum_bid_ends_the_auction_at_once(name: str, bids_before: int) -> None:
    game = fresh(name)
    rules = game.rules
    for k in range(bids_before):
        game.apply(bid(rules.bid_min + k * rules.bid_step))
    seat = game.to_act
    game.apply(bid(rules.bid_max))
    assert game.phase is not Phase.BIDDING
    assert (game.bidder, game.high_bid, game.to_act) == (seat, rules.bid_max, seat)
    assert len(game.auction) == bids_before + 1


@pytest.mark.parametrize("name", ["tournament", "open-nest", "traditional", "full-deck", "ten-half"])
def test_all_pass_redeals_with_the_next_dealer(name: str) -> None:
    game = fresh(name, dealer=2)
    first_deal = game.deal
    run(game, "pass, pass, pass, pass")
    (result,) = game.history
    assert (result.number, result.dealer, result.bidder, result.made, result.score_change) == (1, 2, None, None, (0, 0))
    assert result.deal == first_deal
    assert [(seat, str(action)) for seat, action in result.auction] == [
        (3, "pass"),
        (0, "pass"),
        (1, "pass"),
        (2, "pass"),
    ]
    assert (game.hand_number, game.dealer, game.to_act, game.phase) == (2, 3, 0, Phase.BIDDING)
    assert game.deal != first_deal
    assert game.scores == [0, 0]
    assert game.high_bid is None
    assert game.auction == []


def test_all_pass_redeal_same_dealer_keeps_the_dealer() -> None:
    rules = dataclasses.replace(PRESETS["tournament"].rules, all_pass=AllPass.REDEAL_SAME_DEALER)
    game = fresh("tournament", dealer=2, rules=rules)
    run(game, "pass, pass, pass, pass")
    assert (game.hand_number, game.dealer, game.to_act) == (2, 2, 3)
    assert game.history[0].dealer == 2


def test_kentucky_dealer_must_bid_after_three_passes() -> None:
    game = fresh("kentucky", dealer=3)
    run(game, "pass, pass, pass")
    assert game.to_act == 3
    assert legal_text(game) == ["bid 100"]
    refuse(game, PASS, "illegal 'pass' by seat 3: the dealer must bid 100 when the other three have passed")
    refuse(game, bid(105), "illegal 'bid 105' by seat 3: the dealer must bid exactly 100")
    game.apply(bid(100))
    assert (game.phase, game.bidder, game.high_bid, game.to_act) == (Phase.DISCARD, 3, 100, 3)
    assert game.history == []


def test_kentucky_dealer_may_pass_when_someone_bid() -> None:
    game = fresh("kentucky")
    run(game, "pass, bid 100, pass")
    assert game.to_act == 0
    assert legal_text(game)[:3] == ["pass", "bid 105", "bid 110"]
    game.apply(PASS)
    assert (game.bidder, game.high_bid) == (2, 100)


def test_stuck_dealer_and_stuck_opener_messages_differ() -> None:
    # Knobs no preset combines: an opener who must bid under dealer-must-bid, and a single legal bid.
    rules = Rules.from_mapping({"opener_may_pass": False, "all_pass": "dealer-must-bid"})
    game = fresh("tournament", rules=rules)
    refuse(game, PASS, "illegal 'pass' by seat 1: the opener must bid")
    rules = Rules.from_mapping({"opener_may_pass": False, "bid_max": 70})
    game = fresh("tournament", rules=rules)
    assert legal_text(game) == ["bid 70"]
    refuse(game, bid(75), "illegal 'bid 75' by seat 1: bids are 70 to 70 in steps of 5")


def test_bidders_nest_opener_cannot_pass() -> None:
    game = fresh("bidders-nest", dealer=1)
    assert game.to_act == 2
    assert "pass" not in legal_text(game)
    refuse(game, PASS, "illegal 'pass' by seat 2: the opener must bid")
    game.apply(bid(70))
    assert legal_text(game)[0] == "pass"
    run(game, "pass, pass, pass")
    assert (game.bidder, game.high_bid) == (2, 70)


def test_legal_action_order_in_the_auction() -> None:
    game = fresh("tournament")
    assert legal_text(game) == ["pass", *(f"bid {n}" for n in range(70, 121, 5))]
    game.apply(bid(85))
    assert legal_text(game) == ["pass", *(f"bid {n}" for n in range(90, 121, 5))]
    kentucky = fresh("kentucky")
    assert legal_text(kentucky) == ["pass", *(f"bid {n}" for n in range(100, 181, 5))]
    opener = fresh("bidders-nest")
    assert legal_text(opener) == [f"bid {n}" for n in range(70, 121, 5)]


def test_legal_action_order_in_the_exchange_and_play() -> None:
    game = Game(PRESETS["tournament"].rules, deals=iter([queue_deal(DEAL_85_35, NEST_0)]), first_dealer=0)
    run(game, "bid 70, pass, pass, pass")
    expected = "R6 R7 R12 R14 G5 G6 G12 B6 B7 B11 B13 Y6 Y10 Y11"
    assert legal_text(game) == [f"discard {text}" for text in expected.split()]
    for card in cards(NEST_0):
        game.apply(discard(card))
    assert legal_text(game) == ["trump R", "trump G", "trump B", "trump Y"]
    game.apply(trump(Color.BLACK))
    assert legal_text(game) == [f"play {card}" for card in cards_text(cards("R12 R14 G5 G12 B7 B11 B13 Y10 Y11"))]
    game.apply(play(Card.parse("G5")))
    game.apply(play(Card.parse("G8")))
    # Seat 3 may follow green or play the Rook (a black trump now); the Rook comes last.
    assert legal_text(game) == ["play G9", "play G14", "play ROOK"]


# -- cases 8-12: scoring and the end of the game --------------------------------------------------------

# Bidder seat 1 (team 1) takes 85 counters, the Rook's 20 with the last trick; the defenders 35; the
# nest has none. Tricks: R (25 to seat 1), R, G (25 to seat 3), G, B (15 to seat 1), B (10 to seat 2),
# Y (25 to seat 0), Y, and the last (the Rook's 20 to seat 3).
DEAL_85_35 = {
    0: "R10 R13 G10 G13 B10 B12 Y14 Y12 G7",
    1: "R14 R12 G5 G12 B13 B11 Y10 Y11 B7",
    2: "R5 R11 G8 G11 B5 B14 Y5 Y13 Y7",
    3: "R8 R9 G14 G9 B8 B9 Y8 Y9 ROOK",
}
NEST_0 = "R6 R7 G6 B6 Y6"
# The same with B13 and B14 swapped: seat 1 takes all 25 of black, so 95 to 25.
DEAL_95_25 = {
    0: DEAL_85_35[0],
    1: "R14 R12 G5 G12 B14 B11 Y10 Y11 B7",
    2: "R5 R11 G8 G11 B5 B13 Y5 Y13 Y7",
    3: DEAL_85_35[3],
}
# Case 10: the nest holds R10 and G5 (15 counters); the defenders' seat 2 wins the last trick with the
# Rook. In tricks the bidders take 60 (15 + 20 + 25), the defenders 45 (25 + the last trick's 20).
DEAL_NEST_15 = {
    0: "R5 R13 G10 G13 B10 B13 Y14 Y12 B7",
    1: "R14 R12 G7 G12 B14 B12 Y10 Y11 Y6",
    2: "R7 R11 G8 G11 B5 B11 Y5 Y13 ROOK",
    3: "R8 R9 G14 G9 B8 B9 Y8 Y9 Y7",
}
NEST_15 = "R10 G5 R6 G6 B6"


def scripted_hand(
    name: str,
    queues: Mapping[int, str],
    nest: str,
    amount: int,
    scores: tuple[int, int] = (0, 0),
    rules: Rules | None = None,
) -> Game:
    """Dealer 0; seat 1 bids ``amount``, the rest pass; the bidder discards the nest, names red; play out."""
    deal = queue_deal(queues, nest)
    game = Game(rules or PRESETS[name].rules, deals=iter([deal, deal]), first_dealer=0)
    # Shortcut: the scores a game would have reached before this hand (cases 9, 11, 12). Set before any
    # action of the hand, they are only read when the hand is scored.
    game.scores = list(scores)
    run(game, f"bid {amount}, pass, pass, pass")
    exchange(game)
    play_queues(game, queues)
    return game


@pytest.mark.parametrize("name", SAME_DECK)
def test_crafted_deals_split_the_counters_as_described(name: str) -> None:
    for queues, nest, counters, nest_counters in [
        (DEAL_85_35, NEST_0, (35, 85), 0),
        (DEAL_95_25, NEST_0, (25, 95), 0),
    ]:
        game = scripted_hand(name, queues, nest, 70)
        result = game.history[0]
        assert (result.counters, result.nest_counters) == (counters, nest_counters)
        assert len(result.tricks) == 9
        assert [trick.winner for trick in result.tricks][-1] == 3


@pytest.mark.parametrize("name", SAME_DECK)
def test_case_8_exactly_the_bid(name: str) -> None:
    game = scripted_hand(name, DEAL_85_35, NEST_0, 85)
    (result,) = game.history
    assert (result.bidder, result.bid, result.trump, result.counters) == (1, 85, RED, (35, 85))
    if name == "bidders-nest":
        assert (result.made, result.score_change, game.scores) == (False, (35, -85), [35, -85])
    else:
        assert (result.made, result.score_change, game.scores) == (True, (35, 85), [35, 85])
    assert not game.is_over
    assert (game.hand_number, game.dealer, game.phase) == (2, 1, Phase.BIDDING)


@pytest.mark.parametrize("name", SAME_DECK)
def test_case_8_one_more_counter_than_the_bid_makes_it_everywhere(name: str) -> None:
    game = scripted_hand(name, DEAL_85_35, NEST_0, 80)
    assert (game.history[0].made, game.scores) == (True, [35, 85])


@pytest.mark.parametrize("name", SAME_DECK)
def test_case_9_set(name: str) -> None:
    game = scripted_hand(name, DEAL_95_25, NEST_0, 100)
    result = game.history[0]
    assert (result.counters, result.made, result.score_change, game.scores) == ((25, 95), False, (25, -100), [25, -100])


@pytest.mark.parametrize("name", SAME_DECK)
def test_case_9_set_below_zero(name: str) -> None:
    game = scripted_hand(name, DEAL_85_35, NEST_0, 90, scores=(0, 40))
    assert (game.history[0].made, game.scores) == (False, [35, -50])
    assert game.history[0].scores == (35, -50)


@pytest.mark.parametrize(
    ("name", "nest_team", "counters", "change"),
    [
        ("tournament", 0, (60, 60), (60, -70)),
        ("bidders-nest", 1, (45, 75), (45, 75)),
        ("open-nest", 0, (60, 60), (60, -70)),
        ("traditional", 0, (60, 60), (60, -70)),
    ],
)
def test_case_10_the_nest_counters(
    name: str, nest_team: int, counters: tuple[int, int], change: tuple[int, int]
) -> None:
    game = scripted_hand(name, DEAL_NEST_15, NEST_15, 70)
    result = game.history[0]
    assert cards_text(result.discards) == NEST_15.split()
    assert "R10" in cards_text(result.discards)
    assert (result.tricks[-1].winner, result.nest_counters, result.nest_team) == (2, 15, nest_team)
    assert (result.counters, result.score_change) == (counters, change)
    assert sum(trick.counters for trick in result.tricks) + result.nest_counters == 120


def test_case_10_nest_to_bidder_team_is_a_knob() -> None:
    rules = Rules.from_mapping({"nest_to": "bidder-team"}, base=PRESETS["open-nest"].rules)
    game = scripted_hand("open-nest", DEAL_NEST_15, NEST_15, 70, rules=rules)
    assert (game.history[0].nest_team, game.history[0].counters) == (1, (45, 75))


@pytest.mark.parametrize(
    ("name", "winner", "reason"),
    [
        ("tournament", 0, "both passed the target: higher total"),
        ("bidders-nest", 0, "both passed the target: higher total"),
        ("open-nest", 0, "both passed the target: higher total"),
        ("traditional", 1, "both passed the target: the bidding team wins"),
    ],
)
def test_case_11_both_cross(name: str, winner: int, reason: str) -> None:
    game = scripted_hand(name, DEAL_85_35, NEST_0, 80, scores=(290, 220))
    assert game.scores == [325, 305]
    assert game.outcome == Outcome(winner, (325, 305), 1, reason)
    assert (game.is_over, game.phase, game.legal_actions()) == (True, Phase.OVER, [])


@pytest.mark.parametrize(("name", "over"), [(name, name == "traditional") for name in SOURCE_PRESETS])
def test_case_11_both_cross_tied(name: str, over: bool) -> None:
    game = scripted_hand(name, DEAL_85_35, NEST_0, 80, scores=(285, 235))
    assert game.scores == [320, 320]
    if over:
        assert game.outcome == Outcome(1, (320, 320), 1, "both passed the target: the bidding team wins")
    else:
        assert game.outcome is None
        assert (game.hand_number, game.dealer, game.phase) == (2, 1, Phase.BIDDING)


@pytest.mark.parametrize("name", SOURCE_PRESETS)
@pytest.mark.parametrize(("before", "after", "team"), [((0, 215), (35, 300), 1), ((265, 0), (300, 85), 0)])
def test_case_12_exactly_the_target(name: str, before: tuple[int, int], after: tuple[int, int], team: int) -> None:
    game = scripted_hand(name, DEAL_85_35, NEST_0, 80, scores=before)
    assert tuple(game.scores) == after
    if name == "traditional":
        assert game.outcome is None  # needs more than 300
        assert game.phase is Phase.BIDDING
    else:
        assert game.outcome == Outcome(team, after, 1, "reached the target")


@pytest.mark.parametrize("name", SOURCE_PRESETS)
def test_case_12_one_past_the_target_wins_everywhere(name: str) -> None:
    game = scripted_hand(name, DEAL_85_35, NEST_0, 80, scores=(0, 216))
    assert game.outcome == Outcome(1, (35, 301), 1, "reached the target")


def test_case_12_a_set_can_cost_the_game() -> None:
    # The bidders reach 300 only if they make the bid; set, the defenders' 35 carry them over instead.
    game = scripted_hand("tournament", DEAL_85_35, NEST_0, 90, scores=(270, 250))
    assert game.outcome == Outcome(0, (305, 160), 1, "reached the target")


# -- case 13: who leads the first trick --------------------------------------------------------------


@pytest.mark.parametrize(
    ("name", "leader"),
    [
        ("tournament", 1),
        ("bidders-nest", 1),
        ("open-nest", 2),
        ("traditional", 3),
        ("full-deck", 1),
        ("ten-half", 1),
        ("kentucky", 1),
    ],
)
def test_case_13_first_leader(name: str, leader: int) -> None:
    game = fresh(name, dealer=0)
    low, step = game.rules.bid_min, game.rules.bid_step
    run(game, f"bid {low}, bid {low + step}, pass, pass, pass")
    assert game.bidder == 2
    order = []
    while game.phase is not Phase.PLAY:
        order.append(game.phase)
        exchange(game)
    assert order[0] is (Phase.TRUMP if name == "open-nest" else Phase.DISCARD)
    assert (game.to_act, game.trick_leader) == (leader, leader)


# -- case 14 and the hand limit -----------------------------------------------------------------------


@pytest.mark.parametrize("name", SOURCE_PRESETS)
def test_case_14_whole_games(name: str) -> None:
    rules = PRESETS[name].rules
    game = Game(rules, random.Random(14), first_dealer=3)
    players = random.Random(41)
    while not game.is_over:
        game.apply(random_action(game.legal_actions(), players))
    played = [result for result in game.history if result.bidder is not None]
    assert played
    for result in game.history:
        dealt = [card for hand in result.deal.hands for card in hand] + list(result.deal.nest)
        assert sorted(dealt, key=str) == sorted(rules.deck, key=str)
    for result in played:
        assert len(result.tricks) == 9
        assert len(result.discards) == 5
        in_tricks = [card for trick in result.tricks for card in trick.cards]
        assert sorted([*in_tricks, *result.discards], key=str) == sorted(rules.deck, key=str)
        assert sum(trick.counters for trick in result.tricks) + result.nest_counters == 120
        assert sum(result.counters) == 120


def test_hand_limit_draw_on_equal_scores() -> None:
    rules = dataclasses.replace(PRESETS["tournament"].rules, hand_limit=2)
    game = fresh("tournament", rules=rules)
    run(game, "pass, pass, pass, pass")
    assert not game.is_over
    run(game, "pass, pass, pass, pass")
    assert game.outcome == Outcome(None, (0, 0), 2, "hand limit reached")
    assert game.phase is Phase.OVER


def test_hand_limit_higher_total_wins() -> None:
    rules = dataclasses.replace(PRESETS["tournament"].rules, hand_limit=1)
    game = scripted_hand("tournament", DEAL_85_35, NEST_0, 70, rules=rules)
    assert game.outcome == Outcome(1, (35, 85), 1, "hand limit reached")


def test_the_target_beats_the_hand_limit() -> None:
    rules = dataclasses.replace(PRESETS["tournament"].rules, hand_limit=1)
    game = scripted_hand("tournament", DEAL_85_35, NEST_0, 70, scores=(270, 0), rules=rules)
    assert game.outcome == Outcome(0, (305, 85), 1, "reached the target")


# -- deals ---------------------------------------------------------------------------------------------


def test_a_bad_deal_is_refused() -> None:
    rules = PRESETS["tournament"].rules
    good = queue_deal(DEAL_85_35, NEST_0)
    short = Deal(good.hands, good.nest[:4])
    with pytest.raises(RecordError, match="hand 1: the deal is not the rules' deck"):
        Game(rules, deals=iter([short]))
    doubled = Deal((good.hands[0], good.hands[0], good.hands[2], good.hands[3]), good.nest)
    with pytest.raises(RecordError):
        Game(rules, deals=iter([doubled]))
    with pytest.raises(RecordError, match="no deal given for hand 1"):
        Game(rules, deals=iter([]))


def test_the_official_deal_order() -> None:
    # Cards go one to each player from the dealer's left, then one to the nest, five times; then the
    # rest round the table. An unshuffled deck shows the pattern (the shuffle draws from rng.random).
    class NoShuffle(random.Random):
        def random(self) -> float:
            return 0.999999999

    rules = PRESETS["tournament"].rules
    deal = deal_cards(rules, NoShuffle(), dealer=3)
    deck = list(rules.deck)
    assert deal.nest == tuple(deck[k * 5 + 4] for k in range(5))
    assert deal.hands[0][:5] == tuple(deck[k * 5] for k in range(5))
    assert deal.hands[1][:5] == tuple(deck[k * 5 + 1] for k in range(5))
    assert deal.hands[3][5:] == tuple(deck[25 + 4 * k + 3] for k in range(4))
