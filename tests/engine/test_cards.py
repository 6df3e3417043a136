"""Cards and colours: text round trips, refusals that quote the input, interning that survives copies."""

from __future__ import annotations

import copy
import pickle

import pytest
from hypothesis import given
from hypothesis import strategies as st

from rookarena.engine import cards
from rookarena.engine.cards import COLORS, ROOK, Card, Color, cards_text, parse_cards, sort_cards
from rookarena.engine.presets import PRESETS
from rookarena.errors import ParseError

ALL_CARDS = sorted({card for preset in PRESETS.values() for card in preset.rules.deck}, key=str)


def test_every_preset_deck_is_covered() -> None:
    # The full deck holds every card there is: 4 colours x 14 numbers and the Rook.
    assert len(ALL_CARDS) == 57
    assert ROOK in ALL_CARDS


@pytest.mark.parametrize("card", ALL_CARDS, ids=str)
def test_card_text_round_trip(card: Card) -> None:
    text = str(card)
    assert Card.parse(text) is card
    assert Card.parse(text.lower()) is card
    assert Card.parse(f"  {text} ") is card
    assert eval(repr(card)) is card  # the repr pastes back


@pytest.mark.parametrize(
    ("text", "color", "rank"),
    [("R5", Color.RED, 5), ("G14", Color.GREEN, 14), ("b1", Color.BLACK, 1), ("Y10", Color.YELLOW, 10)],
)
def test_card_fields(text: str, color: Color, rank: int) -> None:
    card = Card.parse(text)
    assert (card.color, card.rank, card.is_rook) == (color, rank, False)


def test_rook_fields() -> None:
    assert Card.parse("rook") is ROOK
    assert (ROOK.color, ROOK.rank, ROOK.is_rook, str(ROOK)) == (None, 0, True, "ROOK")


def test_cards_are_interned() -> None:
    assert Card.parse("R5") is Card(Color.RED, 5)
    assert Card(None, 0) is ROOK
    assert Card.parse("g12") is Card.parse("G12")


@pytest.mark.parametrize("card", ALL_CARDS, ids=str)
def test_copies_keep_identity(card: Card) -> None:
    assert pickle.loads(pickle.dumps(card)) is card
    assert copy.deepcopy(card) is card
    assert copy.copy(card) is card
    assert copy.deepcopy([card, (card,)]) == [card, (card,)]
    assert copy.deepcopy({card: 1}) == {card: 1}


def test_cards_are_immutable() -> None:
    card = Card.parse("R5")
    with pytest.raises(AttributeError):
        card.rank = 6
    assert card.rank == 5


@pytest.mark.parametrize("color", COLORS, ids=str)
def test_color_round_trip(color: Color) -> None:
    assert Color.parse(str(color)) is color
    assert Color.parse(color.name.lower()) is color
    assert pickle.loads(pickle.dumps(color)) is color
    assert eval(repr(color)) is color


def test_color_order() -> None:
    assert [str(color) for color in COLORS] == ["R", "G", "B", "Y"]


# (input, the part of it the message must quote): the whole input, or the offending piece of it.
BAD_CARDS: list[tuple[object, object]] = [
    ("", ""),
    ("R", "R"),
    ("R0", 0),
    ("R15", 15),
    ("X5", "X"),
    ("R5x", "R5x"),
    ("5R", "5R"),
    ("ROOKS", "ROOKS"),
    ("R-1", "R-1"),
    ("RR5", "RR5"),
    ("R 5", "R 5"),
    ("rook!", "rook!"),
    (None, None),
    (5, 5),
]


@pytest.mark.parametrize(("text", "quoted"), BAD_CARDS, ids=repr)
def test_bad_card_text_is_refused(text: object, quoted: object) -> None:
    with pytest.raises(ParseError) as info:
        Card.parse(text)  # type: ignore[arg-type]
    message = str(info.value)
    assert repr(text) in message or repr(quoted) in message, message
    assert message[0].islower(), message


@pytest.mark.parametrize("text", ["R²", "R٣", "G５"])
def test_non_ascii_digits_raise_parse_error(text: str) -> None:
    with pytest.raises(ParseError):
        Card.parse(text)


@pytest.mark.parametrize("text", ["Q", "", "RED!", "ROOK", "5"])
def test_bad_color_is_refused(text: str) -> None:
    with pytest.raises(ParseError, match=f"unknown colour {text!r}"):
        Color.parse(text)


@pytest.mark.parametrize(("color", "rank"), [(Color.RED, 0), (Color.RED, 15), (None, 3), (Color.GREEN, -1)])
def test_constructor_refuses_impossible_cards(color: Color | None, rank: int) -> None:
    with pytest.raises(ParseError, match=repr(rank)):
        Card(color, rank)


def test_sort_order_is_colour_then_number_rook_last() -> None:
    cards = parse_cards(["ROOK", "Y5", "R14", "B1", "G7", "R5", "G13", "B14", "Y1"])
    assert cards_text(sort_cards(cards)) == ["R5", "R14", "G7", "G13", "B1", "B14", "Y1", "Y5", "ROOK"]


@pytest.mark.parametrize("preset", PRESETS)
def test_every_deck_is_sorted_and_distinct(preset: str) -> None:
    deck = list(PRESETS[preset].rules.deck)
    assert sort_cards(deck) == deck
    assert len(set(deck)) == len(deck)
    assert deck[-1] is ROOK


@given(
    st.one_of(
        st.text(max_size=6),
        st.builds(
            lambda c, n, pad: f"{pad}{c}{n}{pad}",
            st.sampled_from("RGBYrgbyX"),
            st.integers(-2, 16),
            st.sampled_from(["", " ", "0"]),
        ),
        st.sampled_from([str(card) for card in ALL_CARDS] + ["ROOK", "rook", " Rook "]),
    )
)
def test_the_table_of_card_texts_reads_as_the_long_way(text: str) -> None:
    """Card.parse looks a card's own text up in a table; any text reads the same with the table empty."""

    def read() -> Card | str:
        try:
            return Card.parse(text)
        except ParseError as exc:
            return str(exc)

    quick = read()
    saved = dict(cards._BY_TEXT)
    cards._BY_TEXT.clear()
    try:
        assert read() == quick
    finally:
        cards._BY_TEXT.update(saved)
