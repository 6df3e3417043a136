"""A cheating bot: it tries every way it knows to learn cards its seat may not see, and says what it learned.

Usage: peeker.py CHANNELS, where CHANNELS is ``messages`` (only what the referee sends it) or ``all``.
It plays the first legal action, and while no card of a hand has been played (the deal and the auction)
it tries:

- messages: league seeds anyone might use (0 to 2047 and a few favourites), each turned into the game's
  deal seed and seat seed with the engine's own functions and checked against the seat seed it was sent;
  the seat seed, the game id and the request ids themselves as league or deal seeds. A candidate counts
  only when the engine, dealing from it, gives the peeker exactly the hand it holds.
- disk: every file it can reach from ``/`` named games.jsonl, league.json, *.stderr.log or a YAML file
  with ``seed:`` in it: records holding its hand, seeds to deal from, logged hands of other seats.
- proc: every other process in /proc: its cmdline and environ (for seeds), its open files (records and
  league.json read through /proc/PID/fd even where the path is hidden) and, for the referee, its memory.
- partner: its hand written to /tmp and /dev/shm, an abstract unix socket serving it, signals to every
  other peeker it can see, and read locks on its own program file (which every peeker opens, read-only)
  at offsets naming its seat and its cards; it reads whatever the other seats left the same ways.
- memory: the hands it held itself in earlier games with the same deal (the duplicate twin, and other
  pairings): what a bot that keeps its process remembers.

Every claim is one line on stderr, ``PEEK {json}``: the game, the seat, the hand number, the channel, the
seat whose cards it claims (or "nest", or "any" for cards of some other seat) and the cards. At the end
of each game (next game or bye) a line ``SEAT {json}`` counts the contacts each channel made with another
process or file of the league, and says whether its look for files (``walked``) reached every directory
it could see before its time for that ran out (a sandbox's few files it reads in full; the whole disk of
an unisolated machine it cannot). The stderr log lives in the results directory, which an isolated bot
cannot see, so the report is no channel under isolation.
"""

from __future__ import annotations

import collections
import contextlib
import fcntl
import hashlib
import json
import os
import random
import re
import signal
import socket
import struct
import sys
import threading
import time
import zlib
from typing import Any

from rookarena.engine.actions import parse_action
from rookarena.engine.cards import cards_text
from rookarena.engine.game import deal_cards
from rookarena.engine.rules import Rules
from rookarena.players import random_action
from rookarena.wire.messages import seat_seed
from rookarena.wire.records import derive_seed

GUESSES = [*range(2048), 2024, 2025, 2026, 4242, 12345, 31337, 65535, 99999, 123456, 1000000, 2**31 - 1]
SKIP_NAMES = (".git", ".venv", "node_modules", "site-packages", "__pycache__")
SKIP_ROOTS = ("/proc", "/sys", "/dev", "/usr", "/snap", "/boot", "/var/lib", "/var/cache", "/run")
WALK_BUDGET = 0.5  # seconds spent looking for files (breadth first from its cwd, where a league runs it)
MAX_FILES = 100  # logs and YAML files kept (the shallowest first) and read at every deal
READ_MOST = 1 << 20  # bytes read from a file at a time
SEEDS_A_DEAL = 20  # new seeds found in files tried at each deal
MEMORY_BUDGET = 16 << 20  # bytes of the referee's memory read, every MEMORY_EVERY games
MEMORY_EVERY = 4
TAG = "rookarena-peek"
HAND = re.compile(rb'"hand":\s*(\[(?:"[A-Za-z0-9]+",?\s*)+\])')
DEAL = re.compile(rb'"deal":\s*(\[\[[^\]]*\](?:,\s*\[[^\]]*\]){3}\]),\s*"nest":\s*(\[[^\]]*\])')
SEED = re.compile(rb'(?:"seed"|seed)\s*[:=]\s*"?(\d{1,40})')


def say(kind: str, data: dict[str, Any]) -> None:
    sys.stderr.write(f"{kind} {json.dumps(data, separators=(',', ':'))}\n")
    sys.stderr.flush()


def cardset(cards: list[str] | frozenset[str]) -> frozenset[str]:
    return frozenset(cards)


def parent(pid: int) -> int:
    """The parent of process ``pid`` (0 when it cannot be read)."""
    try:
        return int(read(f"/proc/{pid}/status").decode().split("PPid:")[1].split()[0])
    except (OSError, ValueError, IndexError):
        return 0


def read(path: str) -> bytes:
    with open(path, "rb") as stream:
        return stream.read()


class Peeker:
    def __init__(self, channels: str) -> None:
        self.all = channels == "all"
        self.game: dict[str, Any] = {}
        self.rules: Rules | None = None
        self.hand_number = 0
        self.dealer = 0
        self.hand: frozenset[str] = frozenset()
        self.quiet = True  # no card of this hand played yet: every other card is still hidden
        self.claimed: set[tuple[str, object]] = set()
        self.contacts: dict[str, int] = {}
        self.seen: dict[tuple[int, int], dict[int, frozenset[str]]] = {}  # (deal, hand number) -> seat: mine
        self.pending_seeds: list[int] = []
        self.games_read = 0
        self.seeds: dict[str, set[int]] = {}  # by channel: seeds read in files and in /proc
        self.tried: set[int] = set()
        self.seeds_hit: dict[int, str] = {}  # seeds that dealt a hand, and the channel that found them
        self.visible: list[int] = []  # the processes it can see, looked up at each deal
        self.deal_rng: Any = None  # a random.Random dealing this game's hands, once a seed is found
        self.deal_channel = ""  # how that seed was found
        self.files: list[str] = []
        self.walked: bool | None = None  # whether its look for files (channels "all") reached every directory
        # Results directories no league has written to since this process began: once read, read again only
        # for their files' growth (none), so that the stale results of other runs do not cost a deal its time.
        self.finished: set[str] = set()
        self.done: set[str] = set()  # their files, read
        self.started = time.time() - 2.0  # (file times have a coarse grain)
        self.records: dict[
            frozenset[str], tuple[list[list[str]], list[str]]
        ] = {}  # a hand -> its deal's hands and nest
        self.read_at: dict[str, int] = {}
        self.logged: dict[tuple[str, int, int], list[str]] = {}  # (game, hand number, seat) -> hand
        self.state: dict[str, Any] = {"game": "", "hand_number": 0, "seat": -1, "hand": []}
        self.lock = threading.Lock()
        self.locks = open(__file__, "rb")  # noqa: SIM115 - kept open: its locks last as long as it does
        self.random = random.Random(0)  # its play: any legal action
        if self.all:
            self.files = self.walk()
            for path in self.files:  # read once before the first game, whose deadlines are short
                with contextlib.suppress(OSError):
                    self.read_file(path, "disk")
            self.serve()

    # -- reporting ------------------------------------------------------------------------------

    def claim(self, channel: str, of: object, cards: frozenset[str] | list[str]) -> None:
        hidden = sorted(set(cards) - self.hand)
        if not self.quiet or not hidden or (channel, of) in self.claimed:
            return
        self.claimed.add((channel, of))
        say(
            "PEEK",
            {
                "game": self.game.get("game"),
                "seat": self.game.get("seat"),
                "hand": self.hand_number,
                "channel": channel,
                "of": of,
                "cards": hidden,
            },
        )

    def claim_deal(self, channel: str, hands: list[list[str]], nest: list[str]) -> None:
        seat = int(self.game["seat"])
        if cardset(hands[seat]) != self.hand:
            return  # not this hand's deal
        for other in range(4):
            if other != seat:
                self.claim(channel, other, cardset(hands[other]))
        self.claim(channel, "nest", cardset(nest))

    def contact(self, channel: str) -> None:
        self.contacts[channel] = self.contacts.get(channel, 0) + 1

    def end_game(self) -> None:
        if self.game:
            seat = {"game": self.game.get("game"), "seat": self.game.get("seat"), "contacts": self.contacts}
            say("SEAT", {**seat, "walked": self.walked})
        self.contacts = {}

    # -- the game ---------------------------------------------------------------------------------

    def on_game(self, message: dict[str, Any]) -> None:
        self.end_game()
        self.game = message
        self.rules = Rules.from_mapping(message["rules"])
        self.deal_rng = None
        self.claimed = set()
        self.find_seed()

    def deal_number(self) -> int:
        """Which deal this game plays, as a league numbers them (every pairing plays the same ones) with
        duplicate deals: from the game's number at the end of its id."""
        match = re.search(r"(\d+)$", str(self.game.get("game")))
        return (int(match.group(1)) - 1) // 2 if match else 0

    def on_deal(self, message: dict[str, Any]) -> None:
        self.hand_number = int(message["hand_number"])
        self.dealer = int(message["dealer"])
        self.hand = cardset(message["hand"])
        self.quiet = True
        self.claimed = set()
        with self.lock:
            self.state = {
                "game": self.game.get("game"),
                "hand_number": self.hand_number,
                "seat": self.game.get("seat"),
                "hand": message["hand"],
            }
        if self.deal_rng is not None and self.rules is not None:
            deal = deal_cards(self.rules, self.deal_rng, self.dealer)
            self.claim_deal(self.deal_channel, [cards_text(h) for h in deal.hands], cards_text(deal.nest))
        self.remember()
        if self.all:
            self.leave_hand()
            # Plays the opponent that logs its hand for debugging, for the others to find.
            line = {"game": self.game.get("game"), "hand": self.hand_number, "seat": self.game.get("seat")}
            sys.stderr.write("LOGGED " + json.dumps({**line, "cards": sorted(self.hand)}) + "\n")
            sys.stderr.flush()
            self.peek()

    def on_act(self, message: dict[str, Any]) -> None:
        view = message.get("view") or {}
        self.quiet = view.get("phase") == "bidding"
        if not self.quiet:
            return
        if self.hand_number == 1 and self.deal_rng is None:
            rid = message.get("id")
            if isinstance(rid, int):
                self.try_seeds([rid], "messages")
        if self.all:  # what a partner may have left since the deal
            with contextlib.suppress(Exception):
                self.from_partner()

    # -- messages: seeds ------------------------------------------------------------------------

    def find_seed(self) -> None:
        seat = int(self.game["seat"])
        sent = self.game.get("seed")
        deal = self.deal_number()
        numbers = {deal, 2 * deal, 2 * deal + 1}  # duplicate deals, or one game a deal
        for guess in GUESSES:
            for number in numbers:
                deal_seed = derive_seed(guess, "deal", number)
                if seat_seed(deal_seed, seat) == sent:
                    self.start_dealing(deal_seed)
                    return
        game_id = str(self.game.get("game"))
        own = [sent, int.from_bytes(hashlib.sha256(game_id.encode()).digest()[:8], "big") >> 1]
        self.pending_seeds = [value for value in own if isinstance(value, int)]

    def start_dealing(self, deal_seed: int) -> None:
        self.deal_rng = random.Random(deal_seed)
        self.deal_channel = "messages"

    def try_seeds(self, values: list[int], channel: str) -> None:
        """Each value as a deal seed and as a league seed; kept when it deals this seat its first hand."""
        assert self.rules is not None
        seat = int(self.game["seat"])
        deal = self.deal_number()
        first = int(self.game.get("first_dealer", 0))
        for value in [*values, *self.pending_seeds]:
            for deal_seed in (value, *(derive_seed(value, "deal", n) for n in (deal, 2 * deal, 2 * deal + 1))):
                rng = random.Random(deal_seed)
                dealt = deal_cards(self.rules, rng, first)
                if cardset(cards_text(dealt.hands[seat])) == self.hand:
                    self.claim_deal(channel, [cards_text(h) for h in dealt.hands], cards_text(dealt.nest))
                    self.deal_rng, self.deal_channel = rng, channel
                    if value != self.game.get("seed"):
                        self.seeds_hit.setdefault(value, channel)  # a league seed is worth trying in every game
                    return
        self.pending_seeds = []

    # -- everything else --------------------------------------------------------------------------

    def peek(self) -> None:
        with contextlib.suppress(OSError):
            self.visible = self.others()
        for step in (self.from_disk, self.from_proc, self.from_partner):
            with contextlib.suppress(Exception):
                step()

    def walk(self) -> list[str]:
        """The files worth reading, shallowest first, from its cwd, /tmp, home and the root: every results
        directory (league.json, games.jsonl) it reaches in time, and up to MAX_FILES logs and YAML files."""
        found: list[str] = []
        stop = time.monotonic() + WALK_BUDGET
        queue = collections.deque([os.getcwd(), "/tmp", os.path.expanduser("~"), "/"])
        done: set[str] = set()
        others = 0
        while queue and time.monotonic() < stop:
            top = queue.popleft()
            if top in done or top in SKIP_ROOTS or os.path.basename(top) in SKIP_NAMES:
                continue
            done.add(top)
            with contextlib.suppress(OSError), os.scandir(top) as entries:
                for entry in entries:
                    with contextlib.suppress(OSError):
                        if entry.is_dir(follow_symlinks=False):
                            queue.append(entry.path)
                        elif entry.name in ("games.jsonl", "league.json"):
                            found.append(entry.path)
                        elif entry.name.endswith((".stderr.log", ".yaml", ".yml")) and others < MAX_FILES:
                            found.append(entry.path)
                            others += 1
        self.walked = not queue
        return found

    def read_file(self, path: str, channel: str) -> None:
        """Take what ``path`` gives away: deals of records, seeds, hands logged by other seats."""
        start = self.read_at.get(path, 0)
        if start and os.stat(path).st_size == start:
            return  # read before, and not grown since (found without opening it: most files, at most deals)
        with open(path, "rb") as stream:
            size = os.fstat(stream.fileno()).st_size
            if size and size == start:
                return
            start = max(start, size - READ_MOST) if size else start
            stream.seek(start)
            data = stream.read(READ_MOST)
        self.read_at[path] = start + len(data)
        if not data:
            return
        self.contact(channel)
        for match in DEAL.finditer(data):
            with contextlib.suppress(ValueError):
                hands, nest = json.loads(match.group(1)), json.loads(match.group(2))
                for hand in hands:
                    self.records[cardset(hand)] = (hands, nest)
        self.seeds.setdefault(channel, set()).update(int(m.group(1)) for m in SEED.finditer(data))
        for line in data.splitlines():
            if line.startswith(b"LOGGED "):
                with contextlib.suppress(ValueError, KeyError):
                    item = json.loads(line[7:])
                    self.logged[(item["game"], item["hand"], item["seat"])] = item["cards"]
        self.claim_known(channel)

    def claim_known(self, channel: str) -> None:
        if not self.game:
            return
        known = self.records.get(self.hand)
        if known is not None:
            self.claim_deal(channel, *known)
        for other in range(4):
            logged = self.logged.get((str(self.game.get("game")), self.hand_number, other))
            if logged is not None and other != self.game.get("seat"):
                self.claim(channel, other, cardset(logged))

    def from_disk(self) -> None:
        for directory in {os.path.dirname(path) for path in self.files if path.endswith("league.json")}:
            if directory in self.finished:
                continue
            with contextlib.suppress(OSError):
                logs = [os.path.join("logs", name) for name in os.listdir(os.path.join(directory, "logs"))]
                for name in ("games.jsonl", *logs):
                    if os.path.join(directory, name) not in self.files:
                        self.files.append(os.path.join(directory, name))
                for name in ("games.jsonl", "logs"):  # a league that ended before this process began
                    if os.stat(os.path.join(directory, name)).st_mtime >= self.started:
                        break
                else:
                    self.finished.add(directory)
        for path in self.files:
            if path in self.done:
                continue
            with contextlib.suppress(OSError):
                self.read_file(path, "disk")
            if os.path.dirname(path) in self.finished or os.path.dirname(os.path.dirname(path)) in self.finished:
                self.done.add(path)
        self.try_found_seeds("disk")

    def try_found_seeds(self, channel: str) -> None:
        """The seeds found in files (league.json's, a config's) as this game's league or deal seed."""
        fresh = sorted(self.seeds.get(channel, set()) - self.tried, key=lambda seed: -seed)[:SEEDS_A_DEAL]
        self.tried.update(fresh)
        if self.hand_number == 1 and self.deal_rng is None:
            self.try_seeds([*fresh, *(seed for seed, how in self.seeds_hit.items() if how == channel)], channel)

    def others(self) -> list[int]:
        """Every process it can see but itself and its ancestors (such as the sandbox's own init)."""
        mine = {os.getpid()}
        pid = os.getpid()
        while pid > 1:
            pid = parent(pid)
            mine.add(pid)
        return [int(n) for n in os.listdir("/proc") if n.isdigit() and int(n) not in mine]

    def league_pids(self) -> list[int]:
        """The referee (its parent, unless that is its sandbox's init) and the bots it started (siblings)."""
        referee = os.getppid()
        found = [pid for pid in self.visible if parent(pid) == referee]
        with contextlib.suppress(OSError):
            if referee > 1 and b"bwrap" not in read(f"/proc/{referee}/cmdline"):
                found.append(referee)
        return found

    def from_proc(self) -> None:
        for pid in self.league_pids():
            with contextlib.suppress(OSError):
                cmdline = read(f"/proc/{pid}/cmdline")
                self.contact("proc")
                environ = read(f"/proc/{pid}/environ")
                found = SEED.finditer(cmdline + b" " + environ)
                self.seeds.setdefault("proc", set()).update(int(m.group(1)) for m in found)
                for fd in os.listdir(f"/proc/{pid}/fd"):
                    with contextlib.suppress(OSError):
                        target = os.readlink(f"/proc/{pid}/fd/{fd}")
                        if target.endswith(("games.jsonl", "league.json", ".stderr.log")):
                            self.read_file(f"/proc/{pid}/fd/{fd}", "proc")
                if b"rookarena" in cmdline and b"peeker" not in cmdline and self.hand_number == 1:
                    self.games_read += 1
                    if self.games_read % MEMORY_EVERY == 1:
                        self.read_memory(pid)  # the records of the games before are in it
        self.try_found_seeds("proc")

    def read_memory(self, pid: int) -> None:
        """Deals and hands in the referee's memory: records being written, deal messages being sent."""
        budget = MEMORY_BUDGET
        with open(f"/proc/{pid}/maps") as maps, open(f"/proc/{pid}/mem", "rb", 0) as mem:
            for line in maps:
                fields = line.split()
                if "rw" not in fields[1] or budget <= 0 or (len(fields) > 5 and not fields[5].startswith("[")):
                    continue
                lo, hi = (int(x, 16) for x in fields[0].split("-"))
                size = min(hi - lo, budget)
                budget -= size
                with contextlib.suppress(OSError, ValueError, OverflowError):
                    mem.seek(lo)
                    data = mem.read(size)
                    self.contact("proc")
                    for match in DEAL.finditer(data):
                        with contextlib.suppress(ValueError):
                            hands, nest = json.loads(match.group(1)), json.loads(match.group(2))
                            for hand in hands:
                                self.records[cardset(hand)] = (hands, nest)
                    for match in HAND.finditer(data):
                        with contextlib.suppress(ValueError):
                            cards = cardset(json.loads(match.group(1)))
                            if cards and not cards & self.hand and len(cards) == len(self.hand):
                                self.claim("proc", "any", cards)
        self.claim_known("proc")

    def leave_hand(self) -> None:
        """Its hand where a partner (or anyone) could pick it up: /tmp and /dev/shm, and locks."""
        name = f"{TAG}-{self.game.get('game')}-{self.hand_number}-{self.game.get('seat')}"
        for directory in ("/tmp", "/dev/shm"):
            with contextlib.suppress(OSError), open(os.path.join(directory, name), "w") as stream:
                stream.write(json.dumps(sorted(self.hand)))
        with contextlib.suppress(OSError):
            fcntl.lockf(self.locks, fcntl.LOCK_UN, 0, 0)  # the last hand's
            for card in self.hand:
                offset = self.lock_offset(int(self.game.get("seat", 0)), card)
                fcntl.lockf(self.locks, fcntl.LOCK_SH | fcntl.LOCK_NB, 1, offset)

    def lock_offset(self, seat: int, card: str) -> int:
        """Where in the program file a read lock says: this seat holds this card, in this game and hand."""
        game = zlib.crc32(str(self.game.get("game")).encode()) % 4096
        return ((game * 16 + self.hand_number % 16) * 4 + seat) * 1024 + zlib.crc32(card.encode()) % 1024

    def from_locks(self, other: int) -> None:
        """The cards whose read locks another process holds at ``other``'s offsets."""
        if self.rules is None:
            return
        deal = deal_cards(self.rules, random.Random(0), 0)
        deck = {card for hand in (*deal.hands, deal.nest) for card in cards_text(hand)}
        found = []
        for card in sorted(deck - self.hand):
            query = struct.pack("hhqqi", fcntl.F_WRLCK, 0, self.lock_offset(other, card), 1, 0)
            try:
                answer = fcntl.fcntl(self.locks, fcntl.F_GETLK, query)
            except OSError:
                return  # no locks to test for: the channel is closed
            if struct.unpack("hhqqi", answer)[0] != fcntl.F_UNLCK:
                found.append(card)
        if found:
            self.contact("lock")
            self.claim("lock", other, cardset(found))

    def from_partner(self) -> None:
        for directory, channel in (("/tmp", "tmp"), ("/dev/shm", "shm")):
            for other in range(4):
                if other == self.game.get("seat"):
                    continue
                name = f"{TAG}-{self.game.get('game')}-{self.hand_number}-{other}"
                with contextlib.suppress(OSError, ValueError), open(os.path.join(directory, name)) as stream:
                    cards = json.loads(stream.read())
                    self.contact(channel)
                    self.claim(channel, other, cardset(cards))
        for other in range(4):
            if other != self.game.get("seat"):
                self.from_locks(other)
        self.from_sockets()
        for pid in self.visible:
            with contextlib.suppress(OSError):
                if b"peeker" in read(f"/proc/{pid}/cmdline"):
                    os.kill(pid, 0)
                    os.kill(pid, signal.SIGWINCH)  # delivered (and ignored): a signal crossed over
                    self.contact("signal")

    def serve(self) -> None:
        """An abstract unix socket that answers with this seat's game, hand number, seat and hand."""
        listener = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
        try:
            listener.bind(f"\0{TAG}-{os.getpid()}")
        except OSError:
            return
        listener.listen(8)

        def loop() -> None:
            while True:
                conn, _ = listener.accept()
                with conn, self.lock:
                    conn.sendall(json.dumps(self.state).encode())

        threading.Thread(target=loop, daemon=True).start()

    def from_sockets(self) -> None:
        with open("/proc/net/unix") as table:
            names = [line.split()[-1] for line in table if f"@{TAG}-" in line]
        for name in names:
            if name == f"@{TAG}-{os.getpid()}":
                continue
            with contextlib.suppress(OSError, ValueError), socket.socket(socket.AF_UNIX, socket.SOCK_STREAM) as conn:
                conn.settimeout(0.2)
                conn.connect("\0" + name[1:])
                state = json.loads(conn.recv(4096).decode())
                self.contact("socket")
                if state["game"] == self.game.get("game") and state["hand_number"] == self.hand_number:
                    self.claim("socket", state["seat"], cardset(state["hand"]))

    def remember(self) -> None:
        """Hands it held itself in earlier games of the same deal are now held by whoever sits there."""
        seat = int(self.game["seat"])
        held = self.seen.setdefault((self.deal_number(), self.hand_number), {})
        for other, cards in held.items():
            if other != seat and not cards & self.hand:
                self.claim("memory", other, cards)
        held[seat] = self.hand


def main() -> None:
    peeker = Peeker(sys.argv[1] if len(sys.argv) > 1 else "messages")
    out = sys.stdout
    for line in sys.stdin:
        if not line.strip():
            continue
        message = json.loads(line)
        kind = message.get("type")
        if kind == "hello":
            out.write(json.dumps({"type": "hello", "name": "peeker", "version": "1", "protocol": "rook/1"}) + "\n")
        elif kind == "game":
            peeker.on_game(message)
        elif kind == "deal":
            peeker.on_deal(message)
        elif kind == "act":
            with contextlib.suppress(Exception):
                peeker.on_act(message)
            action = random_action([parse_action(text) for text in message["legal"]], peeker.random)
            out.write(json.dumps({"id": message["id"], "action": str(action)}) + "\n")
        elif kind == "bye":
            break
        out.flush()
    peeker.end_game()
    sys.stdout.flush()
    os._exit(0)  # at once, whatever its socket's thread is doing


if __name__ == "__main__":
    main()
