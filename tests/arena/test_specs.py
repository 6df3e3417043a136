"""The time control grants and charges a seat's time; the seeding module names every seed a run derives."""

from __future__ import annotations

import dataclasses

import pytest
from hypothesis import given
from hypothesis import strategies as st

from rookarena.arena.specs import TimeControl
from rookarena.engine import seeding
from rookarena.wire import conversation, messages, records

seconds = st.floats(min_value=0.0, max_value=1e4, allow_nan=False, allow_infinity=False)
seeds = st.integers(min_value=0, max_value=(1 << 128) - 1)


@given(move=seconds, bank=seconds, bank_left=seconds, elapsed=seconds)
def test_a_decision_is_charged_only_what_it_takes_beyond_its_move_time(
    move: float, bank: float, bank_left: float, elapsed: float
) -> None:
    clock = TimeControl(move=move, bank=bank)
    after = clock.charge(bank_left, elapsed)
    assert clock.grant(bank_left) == move + bank_left
    assert 0.0 <= after <= bank_left
    if elapsed <= move:
        assert after == bank_left
    else:
        assert after == max(0.0, bank_left - (elapsed - move))


@pytest.mark.parametrize(
    ("bank_left", "elapsed", "after"),
    [(2.0, 0.5, 2.0), (2.0, 1.0, 2.0), (2.0, 1.5, 1.5), (2.0, 3.0, 0.0), (2.0, 9.0, 0.0), (0.0, 1.2, 0.0)],
)
def test_the_bank_pays_for_a_slow_decision(bank_left: float, elapsed: float, after: float) -> None:
    assert TimeControl(move=1.0, bank=2.0).charge(bank_left, elapsed) == after


def test_the_time_control_is_a_plain_value() -> None:
    clock = TimeControl(move=0.5, bank=3.0, startup=2.0)
    assert dataclasses.asdict(clock) == {"move": 0.5, "bank": 3.0, "startup": 2.0}
    with pytest.raises(dataclasses.FrozenInstanceError):
        clock.move = 1.0  # type: ignore[misc]


@given(seed=seeds, deal=st.integers(min_value=0, max_value=10_000))
def test_each_named_seed_is_the_one_derived_under_its_label(seed: int, deal: int) -> None:
    assert seeding.deal_seed(seed, deal) == seeding.derive_seed(seed, "deal", deal)
    assert seeding.substitute_seed(seed) == seeding.derive_seed(seed, "substitute")
    assert seeding.players_seed(seed) == seeding.derive_seed(seed, "players")
    assert records.derive_seed is seeding.derive_seed


@given(seed=seeds, seat=st.integers(min_value=0, max_value=3), number=st.integers(min_value=0, max_value=1000))
def test_the_protocol_sends_the_seats_seeds_and_request_ids_of_the_seeding_module(
    seed: int, seat: int, number: int
) -> None:
    assert messages.seat_seed(seed, seat) == seeding.seat_seed(seed, seat)
    assert conversation.request_id(seed, seat, number) == seeding.request_seed(seed, seat, number)
    assert 0 <= seeding.seat_seed(seed, seat) < 1 << seeding.SEAT_SEED_BITS
    assert 0 <= seeding.request_seed(seed, seat, number) < 1 << seeding.REQUEST_ID_BITS


def test_the_seeds_are_the_same_numbers_on_every_machine() -> None:
    # Written down once: a change here changes every recorded deal, seat seed and request id.
    assert seeding.derive_seed(7, "deal", 0) == seeding.deal_seed(7, 0)
    assert [seeding.deal_seed(7, deal) for deal in range(2)] == PINNED_DEALS
    assert seeding.substitute_seed(7) == PINNED_SUBSTITUTE
    assert [seeding.seat_seed(7, seat) for seat in range(4)] == PINNED_SEATS
    assert seeding.request_seed(7, 1, 2) == PINNED_REQUEST


PINNED_DEALS = [3368640345659678855, 5423680908189825684]
PINNED_SUBSTITUTE = 9049393380984546649
PINNED_SEATS = [577560216, 638344172, 1745223481, 910749698]
PINNED_REQUEST = 5695428764242632


@given(
    field=st.sampled_from(["move", "bank", "startup"]),
    value=st.one_of(
        st.floats(),
        st.integers(min_value=-(10**6), max_value=10**6),
        st.booleans(),
        st.text(max_size=3),
        st.just(86_400),
    ),
)
def test_a_time_control_is_finite_seconds_or_refused_in_a_sentence(field: str, value: object) -> None:
    """What a caller of the library passes (the command line and the config file check first): a clock of
    nan, inf, more than a day (whose milliseconds would not fit a bot's 32-bit integer), a negative number
    or not a number at all never reaches a referee."""
    good = not isinstance(value, bool) and isinstance(value, (int, float)) and 0 <= value <= 86_400
    try:
        clock = TimeControl(**{field: value})  # type: ignore[arg-type]
    except ValueError as exc:
        assert not good
        assert str(exc).startswith(f"time control: {field} must be a number of seconds from 0 to 86400 (a day)")
    else:
        assert good and getattr(clock, field) == value
