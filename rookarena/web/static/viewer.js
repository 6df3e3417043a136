// The replay viewer: a game record (rookarena.record/1) drawn as a card table, step by step.
// A seat's view shows only what that seat knew at that moment, as rookarena/engine/views.py decides:
// its own hand, the calls and the played cards, the nest to the bidder once the auction is won (to
// everyone under nest_seen_by: all) and the discards to the bidder alone. Hidden cards are drawn as
// backs that carry no card name, so the page's table for a seat holds no other seat's unplayed card.
"use strict";

const Rook = (() => {
  const COLORS = "RGBY";
  const COLOR_NAMES = { R: "red", G: "green", B: "black", Y: "yellow" };
  const POSITIONS = ["south", "west", "north", "east"];

  // Every character Python's str.isprintable() refuses (controls such as ESC and BEL, bidi controls and
  // other format characters, line and paragraph separators, spaces other than " ", lone surrogates,
  // private-use and unassigned code points), except the newline and the tab that lay text out.
  const UNPRINTABLE = /(?![\n\t ])[\p{C}\p{Z}]/gu;

  // Text made safe to show: each unprintable character written as its escape (\x1b, \u202e, \U000e0001),
  // as rookarena.wire.names.printable writes it for a terminal, so that nothing a bot or a record holds
  // can reverse the page's own words or hide in it. Every text the scripts put on the page passes here
  // (el and the report's svg do it for every text and title).
  function printable(text) {
    return String(text).replace(UNPRINTABLE, (ch) => {
      const code = ch.codePointAt(0);
      const hex = code.toString(16);
      if (ch === "\r") return "\\r";
      if (code < 0x100) return `\\x${hex.padStart(2, "0")}`;
      if (code < 0x10000) return `\\u${hex.padStart(4, "0")}`;
      return `\\U${hex.padStart(8, "0")}`;
    });
  }

  // Attributes that show as text (a tooltip, what a screen reader says): made printable as texts are;
  // the others (values, data-*, links) keep the record's exact string, which the scripts match on.
  const SHOWN_ATTRIBUTES = new Set(["title", "aria-label", "placeholder", "alt"]);

  function el(tag, attrs, ...children) {
    const node = document.createElement(tag);
    for (const [key, value] of Object.entries(attrs || {})) {
      if (value === null || value === undefined || value === false) continue;
      if (key === "class") node.className = value;
      else if (key === "text") node.textContent = printable(value);
      else if (key.startsWith("on")) node.addEventListener(key.slice(2), value);
      else if (SHOWN_ATTRIBUTES.has(key)) node.setAttribute(key, value === true ? "" : printable(value));
      else node.setAttribute(key, value === true ? "" : String(value));
    }
    for (const child of children.flat(Infinity)) {
      if (child === null || child === undefined || child === false) continue;
      node.append(child instanceof Node ? child : document.createTextNode(printable(child)));
    }
    return node;
  }

  // Seeds can exceed 2^53: read them as strings so that JSON.parse does not round them.
  function parseJSON(text) {
    return JSON.parse(text.replace(/(^|[^\\])"seed":(-?\d{16,})/g, '$1"seed":"$2"'));
  }

  function parseRecords(text) {
    const out = [];
    const lines = text.split(/\r?\n/);
    lines.forEach((line, index) => {
      if (!line.trim()) return;
      let value;
      try {
        value = parseJSON(line);
      } catch (err) {
        if (index === lines.length - 1 || (index === lines.length - 2 && !lines[lines.length - 1].trim())) return;
        throw new Error(`line ${index + 1}: not JSON: ${err.message}`);
      }
      if (!value || typeof value !== "object" || !Array.isArray(value.hands)) {
        throw new Error(`line ${index + 1}: not a game record`);
      }
      out.push(value);
    });
    return out;
  }

  function rankOrder(rules) {
    const order = {};
    (rules.ranks || []).forEach((rank, position) => { order[rank] = position; });
    return order;
  }

  function sortCards(cards, rules, trump) {
    const order = rankOrder(rules);
    const suit = (card) => {
      if (card === "ROOK") return trump ? COLORS.indexOf(trump) : 4;
      return COLORS.indexOf(card[0]);
    };
    const strength = (card) => (card === "ROOK" ? 99 : order[Number(card.slice(1))] || 0);
    return [...cards].sort((a, b) => suit(a) - suit(b) || strength(b) - strength(a));
  }

  function remove(cards, card) {
    const at = cards.indexOf(card);
    if (at < 0) throw new Error(`card ${card} is not in the hand`);
    cards.splice(at, 1);
  }

  // The record's decision_ms (per seat, each decision's reply time in ms, null where the referee played
  // for the seat), or null for a record without it.
  function decisionTimes(record) {
    const times = record.decision_ms;
    return Array.isArray(times) && times.length === 4 && times.every(Array.isArray) ? times : null;
  }

  // Every moment of the game: the deal of each hand, each action, and each hand's score. A decision's
  // act carries its time: the k-th decision of a seat has the k-th entry of the seat's decision_ms.
  function steps(record) {
    const rules = record.rules || {};
    const out = [];
    let scores = [0, 0];
    const times = decisionTimes(record);
    const decided = [0, 0, 0, 0];
    const timed = (seat, text) => {
      if (!times) return { seat, text };
      const value = times[seat][decided[seat]];
      decided[seat] += 1;
      if (value === undefined) return { seat, text }; // a list shorter than the game: no time to show
      return { seat, text, ms: typeof value === "number" ? value : null };
    };
    // The hand a fault stopped (the record's `unfinished`) is played out as far as it got.
    const unfinished = record.unfinished && typeof record.unfinished === "object" ? record.unfinished : null;
    const played = unfinished ? [...record.hands, unfinished] : record.hands;
    played.forEach((hand, hi) => {
      const partial = hand === unfinished;
      const s = {
        hand: hi, number: hand.number, dealer: hand.dealer, kind: "deal", phase: "bidding", act: null,
        text: `hand ${hand.number}: seat ${hand.dealer} deals`, hands: hand.deal.map((cards) => [...cards]),
        nest: [...hand.nest], auction: [], bidder: null, bid: null, discards: [], trump: null, tricks: [],
        trick: null, taken: [0, 0], scores: [...scores], actions: 0, stop: true, summary: null,
        toAct: (hand.dealer + 1) % 4,
      };
      const push = (changes) => {
        Object.assign(s, changes);
        out.push(JSON.parse(JSON.stringify(s)));
      };
      push({});
      hand.auction.forEach((call, k) => {
        const act = timed(call.seat, call.action);
        s.auction.push({ seat: call.seat, action: call.action, ms: act.ms });
        const last = k === hand.auction.length - 1;
        if (last && hand.bidder !== null && hand.bidder !== undefined) {
          // The auction is won: the bidder takes the nest at once, as the engine does.
          s.bidder = hand.bidder;
          s.bid = hand.bid;
          s.hands[hand.bidder].push(...hand.nest);
          s.phase = "nest";
        }
        push({
          kind: "call", act, text: `seat ${call.seat}: ${call.action}`,
          actions: s.actions + 1, stop: last, toAct: null,
        });
      });
      if (partial && (hand.bidder === null || hand.bidder === undefined)) return;
      if (hand.bidder === null || hand.bidder === undefined) {
        scores = [...hand.scores];
        push({ kind: "redeal", act: null, text: "everybody passed: the hand is dealt again", scores: [...scores],
          stop: true, summary: { redeal: true } });
        return;
      }
      const bidder = hand.bidder;
      const discard = () => {
        (hand.discards || []).forEach((card, k) => {
          remove(s.hands[bidder], card);
          s.discards.push(card);
          push({ kind: "discard", act: timed(bidder, `discard ${card}`), text: `seat ${bidder} discards`,
            actions: s.actions + 1, stop: k === hand.discards.length - 1 && rules.nest_order !== "discard-then-trump" });
        });
      };
      const name = () => {
        if (!hand.trump) return;
        push({ kind: "trump", trump: hand.trump, act: timed(bidder, `trump ${hand.trump}`),
          text: `seat ${bidder} names ${COLOR_NAMES[hand.trump]} trump`, actions: s.actions + 1,
          stop: rules.nest_order === "discard-then-trump" });
      };
      if (rules.nest_order === "trump-then-discard") { name(); discard(); } else { discard(); name(); }
      if (partial && (!hand.trump || (hand.discards || []).length < (record.rules || {}).nest_size)) return;
      s.phase = "play";
      const tricks = partial && hand.trick ? [...(hand.tricks || []), hand.trick] : hand.tricks || [];
      tricks.forEach((trick) => {
        s.trick = { leader: trick.leader, cards: [], winner: null, counters: null };
        trick.cards.forEach((card, k) => {
          const seat = (trick.leader + k) % 4;
          remove(s.hands[seat], card);
          s.trick.cards.push(card);
          const done = k === trick.cards.length - 1 && trick.winner !== undefined;
          if (done) {
            s.trick.winner = trick.winner;
            s.trick.counters = trick.counters;
            s.taken[trick.winner % 2] += trick.counters;
            s.tricks.push(JSON.parse(JSON.stringify(s.trick)));
          }
          push({ kind: "play", act: timed(seat, `play ${card}`),
            text: done ? `seat ${seat} plays; seat ${trick.winner} takes the trick (${trick.counters} points)`
              : `seat ${seat} plays`, actions: s.actions + 1, stop: done });
        });
      });
      if (partial) {
        if (hand.trick && !hand.trick.cards.length) push({ act: null, text: `seat ${hand.trick.leader} to lead`, toAct: hand.trick.leader, stop: true });
        return;
      }
      scores = [...hand.scores];
      push({ kind: "score", act: null, phase: "scored", scores: [...scores], stop: true, trick: null,
        text: `hand ${hand.number} scored: bid ${hand.bid} ${hand.made ? "made" : "set"}`,
        summary: { counters: hand.counters, nestCounters: hand.nest_counters, nestTeam: hand.nest_team,
          made: hand.made, change: hand.score_change } });
    });
    if (!out.length) out.push({ hand: -1, kind: "empty", text: "no hand was played", hands: [[], [], [], []],
      nest: [], auction: [], tricks: [], trick: null, discards: [], taken: [0, 0], scores: [0, 0], actions: 0,
      stop: true, bidder: null });
    placeFaults(record, out, played.length);
    placeComments(record, out);
    let slowest = null;
    for (const step of out) {
      if (step.act && typeof step.act.ms === "number" && (!slowest || step.act.ms > slowest.act.ms)) slowest = step;
    }
    if (slowest) slowest.slowest = true;
    return out;
  }

  // Each fault on a request goes to the position the seat was asked at: the last step of its hand with
  // `decision` actions made (for the fault that stopped the game, the last step of all).
  function placeFaults(record, out, hands) {
    for (const fault of record.faults || []) {
      if (typeof fault.decision !== "number" || typeof fault.hand !== "number") continue;
      const hi = fault.hand - 1;
      if (hi < 0 || hi >= hands) continue;
      let at = -1;
      out.forEach((step, i) => { if (step.hand === hi && step.actions <= fault.decision) at = i; });
      if (at < 0) continue;
      const step = out[at];
      step.faults = [...(step.faults || []), fault];
      step.stop = true;
    }
  }

  // A reply's comment goes to the step of its decision: hand `hand`, the step that made `decision + 1` actions.
  function placeComments(record, out) {
    for (const c of Array.isArray(record.comments) ? record.comments : []) {
      if (!c || typeof c.hand !== "number" || typeof c.decision !== "number") continue;
      const step = out.find((s) => s.act && s.hand === c.hand - 1 && s.actions === c.decision + 1);
      if (step) step.comments = [...(step.comments || []), { seat: c.seat, text: String(c.text) }];
    }
  }

  // A fault as the viewer says it: who was asked what, and what went wrong; a seat's view of another
  // seat's fault leaves out the referee's words (the detail can name the faulting seat's cards).
  function faultText(fault, names, seat, step) {
    const legal = fault.legal || [];
    const verb = legal.length ? legal[0].split(" ")[0] : "";
    const trick = step.trick && step.trick.winner === null ? step.trick.cards : [];
    const asked = verb === "play" ? (trick.length ? `to follow to ${trick.join(" ")}` : "to lead")
      : verb === "discard" ? "to discard" : verb === "trump" ? "to name trump" : "to call";
    const own = seat === null || seat === fault.seat;
    const answer = fault.line ? `answered ${fault.line}` : "gave no answer";
    return `fault: seat ${fault.seat} (${names[fault.seat]}) was asked ${asked} and ${own ? answer : "faulted"}: ${fault.kind}` +
      (own ? ` (${fault.detail})` : "");
  }

  function msText(ms) {
    return `${ms.toFixed(1)} ms`;
  }

  // The time of the step's decision, for the seat that made it: how long its bot took, or that the
  // referee played for it; null for a step that is no decision or a record without times.
  function decisionTime(step) {
    const act = step.act;
    if (!act || act.ms === undefined) return null;
    if (act.ms === null) return el("div", { class: "decision-time", title: "the bot did not answer this decision: the referee played for the seat" }, "played by the referee");
    return el("div", { class: `decision-time${step.slowest ? " slowest" : ""}`, title: "the time the bot took to answer this decision, as the referee measured it" },
      `this decision: ${msText(act.ms)}`, step.slowest ? el("strong", {}, " · slowest of the game") : null);
  }

  // What `seat` (null: everything) may see of a step; mirrors rookarena/engine/views.py.
  function visible(step, seat, rules) {
    const all = seat === null;
    const auctionOver = step.bidder !== null;
    const nestShown = all || (auctionOver && (seat === step.bidder || rules.nest_seen_by === "all"));
    return {
      hands: step.hands.map((cards, s) => (all || s === seat ? cards : null)),
      nest: nestShown ? step.nest : null,
      discards: all || (auctionOver && seat === step.bidder) ? step.discards : null,
    };
  }

  function card(text, extra) {
    if (text === "ROOK") return el("span", { class: `card c-rook ${extra || ""}`, "data-card": text, title: "the Rook" }, "Rook");
    return el("span", { class: `card c-${text[0]} ${extra || ""}`, "data-card": text,
      title: `${COLOR_NAMES[text[0]]} ${text.slice(1)}` }, text.slice(1), el("small", {}, COLOR_NAMES[text[0]][0]));
  }

  // The referee's timing of a seat (median and longest decision, in ms), when the record has it.
  function timingText(record, seat) {
    const t = (record.timing || [])[seat];
    if (!t || !t.count) return "";
    const ms = (x) => (x >= 100 ? x.toFixed(0) : x >= 10 ? x.toFixed(1) : x.toFixed(2));
    return `${t.count} decisions · median ${ms(t.median)} ms · longest ${ms(t.max)} ms`;
  }

  function backs(count) {
    return el("span", { class: "backs", title: `${count} hidden cards` },
      Array.from({ length: count }, () => el("span", { class: "card back" })), el("small", {}, ` ${count}`));
  }

  function actionsOf(stepList) {
    // The decisions of the game keyed by hand and position in it: "hi:n" -> "seat: action".
    const out = [];
    for (const step of stepList) if (step.act) out.push({ hand: step.hand, actions: step.actions, act: step.act });
    return out;
  }

  function firstDifference(a, b) {
    const x = actionsOf(a);
    const y = actionsOf(b);
    for (let i = 0; i < Math.max(x.length, y.length); i += 1) {
      const p = x[i];
      const q = y[i];
      if (!p || !q || p.hand !== q.hand || p.act.seat !== q.act.seat || p.act.text !== q.act.text) {
        return { index: i, a: p || null, b: q || null, hand: (p || q).hand, actions: (p || q).actions };
      }
    }
    return null;
  }

  // One board: one record, one position; `mark` is the (hand, actions) of a decision to highlight.
  class Board {
    constructor(id, record, label) {
      this.id = id;
      this.record = record;
      this.label = label;
      this.steps = steps(record);
      this.at = 0;
      this.mark = null;
    }

    moveTo(hand, actions) {
      let best = 0;
      this.steps.forEach((step, i) => {
        if (step.hand < hand || (step.hand === hand && step.actions <= actions)) best = i;
      });
      this.at = best;
    }

    // How the game ended. A seat's view leaves out the referee's reason: a fault's detail can name the
    // cards the faulting seat held.
    ending(seat) {
      const result = this.record.result;
      if (!result) return "stopped before its end";
      const winner = result.winner === null ? "a draw" : `team ${result.winner} wins`;
      return seat === null ? `${winner}: ${result.reason}` : `${winner}, ${result.scores[0]} to ${result.scores[1]}`;
    }

    render(seat) {
      const record = this.record;
      const rules = record.rules || {};
      const step = this.steps[this.at];
      const view = visible(step, seat, rules);
      const names = record.seats || ["?", "?", "?", "?"];
      const base = seat === null ? 0 : seat; // the seat whose view is shown sits at the bottom
      const marked = this.mark && step.act && step.hand === this.mark.hand && step.actions === this.mark.actions;
      const trick = step.trick;
      const seats = [0, 1, 2, 3].map((s) => {
        const cards = view.hands[s];
        const own = seat === s ? " own" : "";
        const acting = step.act && step.act.seat === s ? " acting" : "";
        return el("div", { class: `seat pos-${POSITIONS[(s - base + 4) % 4]}${own}${acting}`, "data-seat": s },
          el("div", { class: "seat-name" }, `seat ${s} · ${names[s]}`, s % 2 === 0 ? " · team 0" : " · team 1",
            step.dealer === s ? " · dealer" : "", step.bidder === s ? ` · bidder (${step.bid})` : "",
            trick && trick.leader === s ? el("span", { class: "led-mark" }, " · led") : null),
          timingText(record, s) ? el("div", { class: "timing", title: "the seat's time per decision over the whole game, as the referee recorded it" }, timingText(record, s)) : null,
          step.act && step.act.seat === s ? decisionTime(step) : null,
          el("div", { class: "hand" }, cards === null ? backs(step.hands[s].length)
            : sortCards(cards, rules, step.trump).map((c) => card(c))));
      });
      const played = [0, 1, 2, 3].map((s) => {
        let face = null;
        if (trick) {
          const k = (s - trick.leader + 4) % 4;
          if (k < trick.cards.length) face = card(trick.cards[k], `${trick.winner === s ? "winner" : ""}${k === 0 ? " led" : ""}`);
        }
        const leads = trick && trick.leader === s;
        return el("div", { class: `slot pos-${POSITIONS[(s - base + 4) % 4]}${leads ? " leader" : ""}`, "data-seat": s },
          face, leads ? el("small", { class: "led-label" }, "led") : null);
      });
      const nestBox = el("div", { class: "nest" }, el("span", { class: "label" }, step.bidder === null ? "nest" : "nest (taken)"),
        view.nest === null ? backs(step.nest.length) : view.nest.map((c) => card(c)));
      const discardBox = step.bidder === null ? null : el("div", { class: "discards" }, el("span", { class: "label" }, "discards"),
        view.discards === null ? backs(step.discards.length) : step.discards.length ? view.discards.map((c) => card(c)) : "none yet");
      const trickLabel = trick ? el("div", { class: "middle" }, `trick ${step.tricks.length + (trick.winner === null ? 1 : 0)}`,
        trick.winner !== null ? el("span", { class: "label" }, `seat ${trick.winner} takes it`) : null) : null;
      const center = el("div", { class: "center" }, played, trickLabel);
      const side = el("div", { class: "side" }, nestBox, discardBox);
      const table = el("div", { class: "table" }, seats, center, side);
      const info = this.info(step, names, marked, seat);
      return el("div", { class: "board", "data-game": this.id, "data-step": this.at, "data-hand": step.hand,
        "data-actions": step.actions, "data-kind": step.kind },
      el("h3", {}, this.label),
      el("p", { class: "meta" }, `rules ${record.rules_name} · seed ${record.seed} · ${this.ending(seat)}`),
      table, info);
    }

    info(step, names, marked, seat) {
      const trump = step.trump ? el("span", { class: `trump c-${step.trump}` }, COLOR_NAMES[step.trump]) : "not named";
      const auction = el("ol", { class: "auction" }, step.auction.map((call) => el("li", { title: typeof call.ms === "number" ? msText(call.ms) : null },
        `${call.seat} ${names[call.seat]}: ${call.action}`)));
      const time = step.act && step.act.ms !== undefined
        ? (step.act.ms === null ? "played by the referee" : `${msText(step.act.ms)} by seat ${step.act.seat}${step.slowest ? ", the slowest of the game" : ""}`)
        : null;
      const tricks = el("ol", { class: "tricks" }, step.tricks.map((t) => el("li", {},
        t.cards.map((c, k) => el("span", { class: (t.leader + k) % 4 === t.winner ? "won" : "" }, card(c))),
        ` → seat ${t.winner}, ${t.counters} pts`)));
      let summary = null;
      if (step.summary && !step.summary.redeal) {
        const m = step.summary;
        summary = el("p", { class: "summary" }, `counters ${m.counters[0]} to ${m.counters[1]} (nest ${m.nestCounters} to team ${m.nestTeam}); `,
          `bid ${m.made ? "made" : "set"}; score ${m.change[0] >= 0 ? "+" : ""}${m.change[0]} / ${m.change[1] >= 0 ? "+" : ""}${m.change[1]}`);
      }
      const result = this.at === this.steps.length - 1 ? el("p", { class: "result" }, this.ending(seat)) : null;
      return el("div", { class: "info" },
        el("p", { class: `now${marked ? " differs" : ""}` }, marked ? "first different decision: " : "", step.text),
        el("dl", {},
          el("dt", {}, "hand"), el("dd", {}, step.hand >= 0 ? (step.hand < this.record.hands.length ? `${step.number} of ${this.record.hands.length}` : `${step.number}, stopped by a fault`) : "-"),
          el("dt", {}, "step"), el("dd", {}, `${this.at + 1} of ${this.steps.length}`),
          time === null ? null : [el("dt", {}, "time"), el("dd", { class: `time${step.slowest ? " slowest" : ""}` }, time)],
          el("dt", {}, "bid"), el("dd", {}, step.bidder === null ? "-" : `${step.bid} by seat ${step.bidder}`),
          el("dt", {}, "trump"), el("dd", {}, trump),
          el("dt", {}, "counters taken"), el("dd", { class: "taken" }, `${step.taken[0]} to ${step.taken[1]}`),
          el("dt", {}, "score"), el("dd", { class: "score", "data-scores": step.scores.join(",") }, `${step.scores[0]} to ${step.scores[1]}`)),
        (step.faults || []).map((f) => el("p", { class: "fault-here", "data-seat": f.seat }, faultText(f, names, seat, step))),
        // A bot's own words, as text only (never markup), and to a seat's view only its own.
        (step.comments || []).filter((c) => seat === null || seat === c.seat).map((c) =>
          el("p", { class: "comment", "data-seat": c.seat }, `seat ${c.seat} (${names[c.seat]}) says: `, el("q", {}, c.text))),
        summary, result,
        el("h4", {}, "auction"), auction, el("h4", {}, "tricks"), tricks);
    }
  }

  // The viewer: a game picker, a seat selector, controls, one board or a duplicate pair side by side.
  class Viewer {
    constructor(root, games, summaries) {
      this.root = root;
      this.games = games; // id -> record
      this.summaries = summaries; // id -> summary (partner) when known
      this.boards = [];
      this.seat = null;
      this.pair = true;
      this.speed = 2;
      this.timer = null;
      document.addEventListener("keydown", (event) => this.key(event));
    }

    // A dropped file's games take the place of the games the page holds.
    replace(records, source) {
      this.pause();
      this.games = {};
      this.summaries = {};
      return this.add(records, source);
    }

    add(records, source) {
      const ids = [];
      records.forEach((record, i) => {
        let id = record.game_id ? String(record.game_id) : `${source} #${i + 1}`;
        while (this.games[id] && this.games[id] !== record) id = `${id}′`;
        this.games[id] = record;
        ids.push(id);
      });
      this.linkPairs(ids);
      return ids;
    }

    linkPairs(ids) {
      const groups = {};
      for (const id of ids) {
        const league = this.games[id].league;
        if (!league) continue;
        const key = `${league.name}|${(league.pairing || []).join("|")}|${league.deal}`;
        (groups[key] = groups[key] || []).push(id);
      }
      for (const group of Object.values(groups)) {
        if (group.length !== 2) continue;
        this.summaries[group[0]] = Object.assign(this.summaries[group[0]] || {}, { partner: group[1] });
        this.summaries[group[1]] = Object.assign(this.summaries[group[1]] || {}, { partner: group[0] });
      }
    }

    open(id) {
      const record = this.games[id];
      if (!record) {
        this.root.replaceChildren(el("p", { class: "empty" }, `game ${id} is not embedded in this page: drop its games.jsonl here`));
        return;
      }
      const summary = this.summaries[id] || {};
      this.boards = [new Board(id, record, `${id}: ${this.teamsText(record)}`)];
      const partner = summary.partner && this.games[summary.partner] ? summary.partner : null;
      this.partner = partner;
      if (partner && this.pair) {
        const other = new Board(partner, this.games[partner], `${partner}: ${this.teamsText(this.games[partner])}`);
        this.boards.push(other);
        this.difference = firstDifference(this.boards[0].steps, other.steps);
        if (this.difference) {
          this.boards[0].mark = this.difference;
          other.mark = this.difference;
        }
      } else {
        this.difference = null;
      }
      this.current = id;
      if (this.seat !== null && this.seat > 3) this.seat = null;
      this.render();
    }

    teamsText(record) {
      const teams = record.teams || [record.seats[0], record.seats[1]];
      const scores = record.result ? record.result.scores : [0, 0];
      return `${teams[0]} (seats 0, 2) ${scores[0]} – ${scores[1]} ${teams[1]} (seats 1, 3)`;
    }

    // Every board shows the same moment (hand, decision); at the main game's end every game is at its end.
    go(index) {
      const main = this.boards[0];
      if (!main) return;
      main.at = Math.max(0, Math.min(main.steps.length - 1, index));
      const step = main.steps[main.at];
      const last = main.at === main.steps.length - 1;
      for (const other of this.boards.slice(1)) {
        if (last) other.at = other.steps.length - 1;
        else other.moveTo(step.hand, step.actions);
      }
      if (last) this.pause();
      this.update();
    }

    // Autoplay: one step every 1/speed seconds until the end.
    play() {
      if (!this.boards.length) return;
      if (this.boards[0].at >= this.boards[0].steps.length - 1) this.go(0);
      this.pause();
      this.timer = setInterval(() => this.go(this.boards[0].at + 1), 1000 / this.speed);
      this.update();
    }

    pause() {
      if (this.timer) clearInterval(this.timer);
      this.timer = null;
    }

    toggle() {
      if (this.timer) { this.pause(); this.update(); } else this.play();
    }

    setSpeed(speed) {
      this.speed = speed;
      if (this.timer) this.play();
    }

    stop(direction) {
      const main = this.boards[0];
      let i = main.at + direction;
      while (i > 0 && i < main.steps.length - 1 && !main.steps[i].stop) i += direction;
      this.go(i);
    }

    hand(direction) {
      const main = this.boards[0];
      const current = main.steps[main.at].hand;
      let i = main.at;
      if (direction > 0) {
        while (i < main.steps.length - 1 && main.steps[i].hand === current) i += 1;
      } else {
        const target = main.steps[main.at].kind === "deal" ? current - 1 : current;
        i = main.steps.findIndex((step) => step.hand === Math.max(0, target));
      }
      this.go(i);
    }

    key(event) {
      if (!this.boards.length || event.altKey || event.ctrlKey || event.metaKey) return;
      const target = event.target;
      if (target && (target.tagName === "INPUT" || target.tagName === "SELECT" || target.tagName === "TEXTAREA")) return;
      const at = this.boards[0].at;
      const moves = {
        ArrowRight: () => this.go(at + 1), ArrowLeft: () => this.go(at - 1),
        ArrowDown: () => this.stop(1), ArrowUp: () => this.stop(-1),
        PageDown: () => this.hand(1), PageUp: () => this.hand(-1),
        Home: () => this.go(0), End: () => this.go(Infinity), " ": () => this.toggle(),
      };
      const move = moves[event.key];
      if (move) {
        event.preventDefault();
        move();
      }
    }

    render() {
      this.pause();
      const main = this.boards[0];
      const record = main.record;
      const names = record.seats || [];
      const seatSelect = el("select", { id: "seat-select", "aria-label": "whose view",
        onchange: (e) => { this.seat = e.target.value === "all" ? null : Number(e.target.value); this.update(); } },
      el("option", { value: "all", selected: this.seat === null }, "everything"),
      [0, 1, 2, 3].map((s) => el("option", { value: s, selected: this.seat === s }, `what seat ${s} (${names[s]}) knew`)));
      const ids = Object.keys(this.games);
      const picker = el("select", { id: "game-select", "aria-label": "game", onchange: (e) => this.open(e.target.value) },
        ids.slice(0, 2000).map((id) => el("option", { value: id, selected: id === this.current }, id)),
        ids.length > 2000 && !ids.slice(0, 2000).includes(this.current) ? el("option", { value: this.current, selected: true }, this.current) : null);
      const button = (label, title, action, id) => el("button", { type: "button", title, onclick: action, id }, label);
      this.playButton = button("▶ play", "play the game step by step (space)", () => this.toggle(), "play-button");
      const speed = el("select", { id: "speed-select", "aria-label": "steps per second", onchange: (e) => this.setSpeed(Number(e.target.value)) },
        [0.5, 1, 2, 4, 8, 16].map((v) => el("option", { value: v, selected: v === this.speed }, `${v} steps/s`)));
      this.slider = el("input", { type: "range", id: "step-slider", min: 0, max: main.steps.length - 1, value: main.at, "aria-label": "step",
        oninput: (e) => { this.pause(); this.go(Number(e.target.value)); } });
      this.position = el("span", { class: "position", id: "step-position" });
      const controls = el("div", { class: "controls" },
        button("|◀", "start (Home)", () => this.go(0)),
        button("◀ hand", "previous hand (PgUp)", () => this.hand(-1)),
        button("◀ trick", "previous trick or phase (↑)", () => this.stop(-1)),
        button("◀", "previous action (←)", () => this.go(this.boards[0].at - 1)),
        button("▶", "next action (→)", () => this.go(this.boards[0].at + 1)),
        button("trick ▶", "next trick or phase (↓)", () => this.stop(1)),
        button("hand ▶", "next hand (PgDn)", () => this.hand(1)),
        button("▶|", "end (End)", () => this.go(Infinity)),
        this.playButton, el("label", {}, " speed ", speed));
      const scrub = el("div", { class: "controls scrub" }, this.slider, this.position,
        el("label", {}, " game ", picker), el("label", {}, " view ", seatSelect));
      const notes = [];
      if (this.partner) {
        notes.push(el("label", { class: "pair" }, el("input", { type: "checkbox", id: "pair-toggle", checked: this.pair,
          onchange: (e) => { this.pair = e.target.checked; this.open(this.current); } }),
        ` the same deal with the teams swapped (${this.partner}) side by side`));
      }
      if (this.boards.length > 1) {
        const d = this.difference;
        notes.push(d
          ? el("p", { class: "difference" }, `first different decision: hand ${this.boards[0].record.hands[d.hand] ? this.boards[0].record.hands[d.hand].number : d.hand + 1}, decision ${d.actions}: `,
            d.a ? `seat ${d.a.act.seat} (${this.boards[0].record.seats[d.a.act.seat]}) ${d.a.act.text}` : "the game had ended", " on the left; ",
            d.b ? `seat ${d.b.act.seat} (${this.boards[1].record.seats[d.b.act.seat]}) ${d.b.act.text}` : "the game had ended", " on the right ",
            button("go there", "show the first different decision", () => {
              const i = this.boards[0].steps.findIndex((s) => s.act && s.hand === d.hand && s.actions === d.actions);
              this.go(i >= 0 ? i : this.boards[0].steps.length - 1);
            }))
          : el("p", { class: "difference" }, "the two games made the same decisions"));
      }
      const slowest = main.steps.findIndex((step) => step.slowest);
      if (slowest >= 0) {
        const act = main.steps[slowest].act;
        notes.push(el("p", { class: "slowest-note" }, `slowest decision of the game: ${msText(act.ms)}, seat ${act.seat} (${names[act.seat]}) ${act.text} in hand ${main.steps[slowest].number} `,
          button("go there", "show the slowest decision", () => this.go(slowest), "slowest-button")));
      }
      this.boardsNode = el("div", { class: `boards n${this.boards.length}` });
      this.root.replaceChildren(controls, scrub, ...notes, this.boardsNode);
      this.update();
    }

    // Redraw the boards and the slider for the current step (the controls stay, so a drag goes on).
    update() {
      if (!this.boardsNode) return;
      const main = this.boards[0];
      this.boardsNode.replaceChildren(...this.boards.map((board) => board.render(this.seat)));
      this.slider.value = String(main.at);
      this.position.textContent = ` step ${main.at + 1} of ${main.steps.length}`;
      this.playButton.textContent = this.timer ? "❚❚ pause" : "▶ play";
    }
  }

  return { Viewer, Board, steps, visible, parseRecords, parseJSON, firstDifference, el, printable, sortCards, decisionTimes };
})();
