// The report: league, standings, rating plots, crosstable, match, faults and games, drawn from the
// page's JSON blob; a game from the list opens in the viewer (viewer.js).
"use strict";

(() => {
  const { el, printable } = Rook;
  const data = Rook.parseJSON(document.getElementById("rookarena-data").textContent);
  const SVG = "http://www.w3.org/2000/svg";

  // As el: every text child, and the label a screen reader says, made printable.
  function svg(tag, attrs, ...children) {
    const node = document.createElementNS(SVG, tag);
    for (const [key, value] of Object.entries(attrs || {})) if (value !== null && value !== undefined) node.setAttribute(key, key === "aria-label" ? printable(value) : String(value));
    for (const child of children.flat(Infinity)) if (child !== null && child !== undefined) node.append(child instanceof Node ? child : document.createTextNode(printable(child)));
    return node;
  }

  const signed = (x, digits) => (x === null || x === undefined ? "-" : `${x > 0 ? "+" : ""}${x.toFixed(digits)}`);
  const fixed = (x, digits) => (x === null || x === undefined ? "-" : x.toFixed(digits));
  const pct = (x) => (x === null || x === undefined ? "-" : (100 * x).toFixed(1));

  // -- standings ------------------------------------------------------------------------------------
  function cellText(key, value) {
    if (value === null || value === undefined) return "-";
    if (key === "win_rate") return `${pct(value.estimate)} [${pct(value.lo)}, ${pct(value.hi)}]`;
    if (key === "made_rate") return pct(value);
    if (key === "rating") return `${signed(value.elo, 0)} ± ${fixed(value.error, 0)}`;
    if (key === "duplicate") return `${signed(value.mean, 1)} ± ${value.half_width === null ? "∞" : fixed(value.half_width, 1)} (${value.pairs})`;
    if (key === "faults") return Object.entries(value).map(([k, n]) => `${k} ${n}`).join(", ") || "-";
    if (typeof value === "number") return Number.isInteger(value) ? String(value) : value.toFixed(1);
    if (typeof value === "object" && "estimate" in value) return `${fixed(value.estimate, 3)} [${fixed(value.lo, 3)}, ${fixed(value.hi, 3)}]`;
    if (typeof value === "object") return JSON.stringify(value);
    return String(value);
  }

  function sortValue(value) {
    if (value === null || value === undefined) return -Infinity;
    if (typeof value === "number" || typeof value === "string") return value;
    if (typeof value === "boolean") return Number(value);
    for (const key of ["estimate", "elo", "mean"]) if (key in value) return value[key];
    return Object.values(value).reduce((a, b) => a + (typeof b === "number" ? b : 0), 0);
  }

  // The columns that matter most come first; the others are shown on request, so the table fits 1280 px.
  const KEY_COLUMNS = ["rank", "bot", "rating", "duplicate", "win_rate", "games", "wins", "draws", "losses", "faults"];

  function rankText(rows, row) {
    const shared = rows.filter((other) => other.rank === row.rank).length > 1;
    return `${row.rank}${shared ? "=" : ""}`;
  }

  function standingsSection() {
    const { rows } = data.standings;
    const known = data.standings.columns;
    const columns = [...KEY_COLUMNS.map((key) => known.find((c) => c.key === key)).filter(Boolean),
      ...known.filter((c) => !KEY_COLUMNS.includes(c.key))];
    const extra = (column) => !KEY_COLUMNS.includes(column.key);
    const table = el("table", { id: "standings", class: "standings sortable compact" });
    const head = el("tr", {}, columns.map((column, i) => el("th", { scope: "col", "data-key": column.key, title: column.help,
      class: extra(column) ? "extra" : "", tabindex: 0, "aria-sort": "none", onclick: () => sortBy(i), onkeydown: (e) => { if (e.key === "Enter") sortBy(i); } }, column.label)));
    const body = el("tbody", {}, rows.map((row) => el("tr", { "data-bot": row.bot }, columns.map((column) =>
      el(column.key === "bot" ? "th" : "td", { "data-key": column.key, "data-value": JSON.stringify(row[column.key] === undefined ? null : row[column.key]),
        class: `${typeof row[column.key] === "string" ? "text" : "num"}${extra(column) ? " extra" : ""}` },
      column.key === "rank" ? rankText(rows, row) : cellText(column.key, row[column.key]))))));
    table.append(el("thead", {}, head), body);
    let sorted = { index: 0, direction: 1 };
    function sortBy(index) {
      const direction = sorted.index === index ? -sorted.direction : (columns[index].key === "bot" || columns[index].key === "rank" ? 1 : -1);
      sorted = { index, direction };
      const lines = [...body.children];
      lines.sort((a, b) => {
        const x = sortValue(JSON.parse(a.children[index].dataset.value));
        const y = sortValue(JSON.parse(b.children[index].dataset.value));
        return (x < y ? -1 : x > y ? 1 : 0) * direction;
      });
      body.replaceChildren(...lines);
      [...head.children].forEach((th, i) => th.setAttribute("aria-sort", i === index ? (direction > 0 ? "ascending" : "descending") : "none"));
    }
    const toggle = el("label", { class: "toggle" }, el("input", { type: "checkbox", id: "all-columns",
      onchange: (e) => table.classList.toggle("compact", !e.target.checked) }), ` every column (${columns.filter(extra).length} more: ${columns.filter(extra).map((c) => c.label).join(", ")})`);
    const legend = el("dl", { class: "legend" }, columns.map((column) => [el("dt", {}, column.label), el("dd", {}, column.help)]));
    return el("section", { id: "standings-section" }, el("h2", {}, "Standings"),
      el("p", { class: "help" }, "Click a column's header to sort by it (again to reverse). Equal figures share a rank, written 2= (the next rank skips: 1, 2=, 2=, 4). Every column is explained below the table. ", toggle),
      el("div", { class: "scroll" }, table), el("details", {}, el("summary", {}, "What the columns mean"), legend));
  }

  // -- plots --------------------------------------------------------------------------------------
  function intervalPlot(id, title, rows, unit) {
    const finite = rows.flatMap((r) => [r.lo, r.hi, r.value]).filter((x) => x !== null && Number.isFinite(x));
    let lo = Math.min(0, ...finite);
    let hi = Math.max(0, ...finite);
    if (hi - lo < 1) { lo -= 1; hi += 1; }
    const pad = (hi - lo) * 0.05;
    lo -= pad; hi += pad;
    const width = plotWidth();
    const longest = Math.max(4, ...rows.map((r) => printable(r.name).length));
    const left = Math.min(Math.round(width * 0.45), 16 + 7.2 * longest); const right = 24; const rowH = 26; const top = 10;
    const height = top + rows.length * rowH + 30;
    const x = (v) => left + ((Math.max(lo, Math.min(hi, v)) - lo) / (hi - lo)) * (width - left - right);
    const ticks = [];
    const step = Math.pow(10, Math.floor(Math.log10((hi - lo) / 4)));
    const nice = [1, 2, 5, 10].map((m) => m * step).find((s) => (hi - lo) / s <= 8) || step * 10;
    for (let t = Math.ceil(lo / nice) * nice; t <= hi; t += nice) ticks.push(t);
    const plot = svg("svg", { id, viewBox: `0 0 ${width} ${height}`, width: "100%", style: `max-width:${width}px`, role: "img", "aria-label": title },
      ticks.map((t) => svg("g", {}, svg("line", { x1: x(t), x2: x(t), y1: top, y2: height - 25, class: t === 0 ? "zero" : "grid" }),
        svg("text", { x: x(t), y: height - 10, "text-anchor": "middle", class: "tick" }, `${t > 0 ? "+" : ""}${Math.round(t * 100) / 100}`))),
      rows.map((r, i) => {
        const y = top + i * rowH + rowH / 2;
        const parts = [svg("text", { x: left - 8, y: y + 4, "text-anchor": "end", class: "name", textLength: printable(r.name).length * 7.2 > left - 16 ? left - 16 : null, lengthAdjust: "spacingAndGlyphs" }, r.name)];
        if (r.value === null) {
          parts.push(svg("text", { x: left + 4, y: y + 4, class: "none" }, "no data"));
        } else {
          const a = r.lo === null ? lo : r.lo;
          const b = r.hi === null ? hi : r.hi;
          parts.push(svg("rect", { x: x(a), y: y - 5, width: Math.max(1, x(b) - x(a)), height: 10, class: `bar${r.lo === null || r.hi === null ? " open" : ""}` }));
          parts.push(svg("circle", { cx: x(r.value), cy: y, r: 5, class: "dot" }));
          parts.push(svg("title", {}, `${r.name}: ${signed(r.value, 1)} ${unit}, 95% interval [${r.lo === null ? "-∞" : signed(r.lo, 1)}, ${r.hi === null ? "+∞" : signed(r.hi, 1)}]`));
        }
        return svg("g", { class: "row", "data-name": r.name }, parts);
      }));
    return el("figure", {}, plot, el("figcaption", {}, title));
  }

  // The plots are drawn to the width of the page's sections (their SVG scales with it after).
  function plotWidth() {
    const main = document.querySelector("main");
    const width = main ? main.clientWidth - 2 * 24 - 40 : 900;
    return Math.max(480, Math.min(1300, width || 900));
  }

  function ratingsSection() {
    const elo = data.ratings.map((r) => ({ name: r.name, value: r.elo, lo: r.lo, hi: r.hi }));
    const parts = [el("h2", {}, "Ratings"), intervalPlot("elo-plot", "Bradley–Terry Elo (mean 0) with its 95% interval", elo, "Elo")];
    if (data.ratings.some((r) => r.duplicate)) {
      const dup = data.ratings.map((r) => (r.duplicate ? { name: r.name, value: r.duplicate.mean, lo: r.duplicate.lo, hi: r.duplicate.hi } : { name: r.name, value: null }));
      parts.push(intervalPlot("dup-plot", "Paired duplicate difference per deal pair (own minus opponent's final score over both games), with its 95% t-interval", dup, "points"));
    }
    return el("section", { id: "ratings-section" }, parts);
  }

  function neighboursSection() {
    const num = (v, digits, infinity) => (v === null ? infinity : (v >= 0 ? "+" : "") + v.toFixed(digits));
    const interval = (d, digits) => `${num(d.value, digits, "inf")} [${num(d.lo, digits, "-inf")}, ${num(d.hi, digits, "+inf")}]`;
    const ranks = data.standings.rows.map((r) => r.rank);
    const rank = (r) => `${r}${ranks.filter((x) => x === r).length > 1 ? "=" : ""}`;
    const table = el("table", { id: "neighbours", class: "neighbours" },
      el("thead", {}, el("tr", {}, ["ranks", "higher", "lower", "games", "score %", "dup diff, points a deal pair [95% CI]", "Elo diff [95% CI]", "apart"].map((h) => el("th", { scope: "col" }, h)))),
      el("tbody", {}, data.neighbours.map((n) => n.games === 0 ? el("tr", { class: "never", "data-higher": n.higher, "data-lower": n.lower },
        el("td", {}, `${rank(n.ranks[0])}-${rank(n.ranks[1])}`), el("td", {}, n.higher), el("td", {}, n.lower), el("td", { class: "num" }, "0"),
        el("td", { class: "num" }, "-"), el("td", { class: "num", "data-key": "dup" }, "-"), el("td", { class: "num", "data-key": "elo" }, "-"), el("td", {}, "never met"))
        : el("tr", { class: n.apart ? "apart" : "", "data-higher": n.higher, "data-lower": n.lower },
        el("td", {}, `${rank(n.ranks[0])}-${rank(n.ranks[1])}`), el("td", {}, n.higher), el("td", {}, n.lower), el("td", { class: "num" }, String(n.games)),
        el("td", { class: "num" }, `${pct(n.score)}`), el("td", { class: "num", "data-key": "dup" }, n.dup ? interval(n.dup, 1) : "-"),
        el("td", { class: "num", "data-key": "elo" }, interval(n.elo, 0)),
        el("td", {}, n.apart ? `yes (${n.diff.kind === "dup" ? "dup" : "Elo"})` : "no")))));
    return el("section", { id: "neighbours-section" }, el("h2", {}, "Neighbours"),
      el("p", { class: "help" }, "Each entry against the next one below it in the standings, over their own games: the higher one's score, the paired duplicate difference (with two deal pairs or more) and the Elo difference, each with its 95% interval and each in its own unit. ",
        el("strong", {}, "apart"), ": the dup diff's interval excludes 0 (without it, the Elo diff's), so the games tell the two apart."),
      el("div", { class: "scroll" }, table));
  }

  function crosstableSection() {
    const cross = data.crosstable;
    const shade = (rate) => {
      const t = rate - 0.5;
      return t >= 0 ? `hsl(130 55% ${95 - 45 * 2 * t}%)` : `hsl(0 65% ${95 + 45 * 2 * t}%)`;
    };
    const table = el("table", { id: "crosstable", class: "crosstable" },
      el("thead", {}, el("tr", {}, el("th", {}, "row vs column"), cross.entries.map((name) => el("th", { scope: "col" }, name)))),
      el("tbody", {}, cross.entries.map((row, i) => el("tr", {}, el("th", { scope: "row" }, row), cross.cells[i].map((cell, j) => {
        if (i === j) return el("td", { class: "self" }, "×");
        if (!cell) return el("td", { class: "none" }, "·");
        return el("td", { class: cell.significant ? "significant" : "", style: `background:${shade(cell.rate)}`,
          title: `${row} against ${cross.entries[j]}: ${cell.wins} wins, ${cell.draws} draws, ${cell.losses} losses; score ${pct(cell.rate)}% [${pct(cell.lo)}, ${pct(cell.hi)}]${cell.significant ? ": the interval excludes 50%" : ""}` },
        `${cell.wins}-${cell.draws}-${cell.losses}`, el("br"), `${pct(cell.rate)}%${cell.significant ? " *" : ""}`);
      })))));
    return el("section", { id: "crosstable-section" }, el("h2", {}, "Crosstable"),
      el("p", { class: "help" }, "Wins-draws-losses of the row's entry against the column's, and its score. Green: the row scored more than half, red: less. ",
        el("strong", {}, "*"), " and a frame: the 95% Wilson interval of the score excludes 50%."),
      el("div", { class: "scroll" }, table));
  }

  function linePlot(id, title, points, yLabel, bounds) {
    const width = plotWidth(); const height = 230; const left = 50; const right = 20; const top = 22; const bottom = 30;
    const xs = points.map((p) => p.x);
    const ys = points.map((p) => p.y).concat(bounds || [], [0]);
    const x0 = 0; const x1 = Math.max(1, ...xs);
    let y0 = Math.min(...ys); let y1 = Math.max(...ys);
    if (y1 - y0 < 1) { y0 -= 1; y1 += 1; }
    const X = (v) => left + ((v - x0) / (x1 - x0)) * (width - left - right);
    const Y = (v) => top + ((y1 - v) / (y1 - y0)) * (height - top - bottom);
    const path = points.map((p, i) => `${i ? "L" : "M"}${X(p.x).toFixed(1)},${Y(p.y).toFixed(1)}`).join(" ");
    const plot = svg("svg", { id, viewBox: `0 0 ${width} ${height}`, width: "100%", style: `max-width:${width}px`, role: "img", "aria-label": title },
      svg("line", { x1: left, x2: width - right, y1: Y(0), y2: Y(0), class: "zero" }),
      (bounds || []).map((b) => svg("g", {}, svg("line", { x1: left, x2: width - right, y1: Y(b), y2: Y(b), class: "bound" }),
        svg("text", { x: left + 4, y: Y(b) - 4, class: "tick" }, `${b > 0 ? "accept H1" : "accept H0"} at ${b.toFixed(2)}`))),
      svg("path", { d: path, class: "line" }),
      points.map((p) => svg("circle", { cx: X(p.x), cy: Y(p.y), r: 2.5, class: "dot" }, svg("title", {}, p.label))),
      svg("text", { x: left - 6, y: Y(y1) + 10, "text-anchor": "end", class: "tick" }, y1.toFixed(1)),
      svg("text", { x: left - 6, y: Y(y0), "text-anchor": "end", class: "tick" }, y0.toFixed(1)),
      svg("text", { x: width - right, y: height - 8, "text-anchor": "end", class: "tick" }, `games (${x1})`),
      svg("text", { x: left, y: height - 8, class: "tick" }, yLabel));
    return el("figure", {}, plot, el("figcaption", {}, title));
  }

  function matchSection() {
    const m = data.match;
    const parts = [el("h2", {}, `Match: ${m.a} against ${m.b}`), el("pre", { class: "summary" }, m.summary)];
    parts.push(linePlot("running-plot", `Running score: ${m.a}'s wins minus losses after each game (a draw counts 0)`,
      m.running.map((p) => ({ x: p.game, y: p.net, label: `after game ${p.game}: ${m.a} scored ${p.total} of ${p.game}` })), "wins − losses"));
    if (m.sprt) {
      const s = m.sprt;
      parts.push(linePlot("sprt-plot", `SPRT (${s.model}) of ${s.h0} against ${s.h1} (α ${s.alpha}, β ${s.beta}): the log-likelihood ratio after each ${s.per} against its two bounds`,
        s.points.map((p) => ({ x: p.games, y: p.llr, label: `after ${p.games} games: LLR ${p.llr.toFixed(3)}` })), "LLR", [s.lower, s.upper]));
      parts.push(el("p", {}, s.text, s.decided ? ` (first decided after ${s.decided.games} games: ${s.decided.hypothesis})` : ""));
    } else {
      parts.push(el("p", { class: "help" }, "Build the report with --sprt ELO0 ELO1 to see the sequential test's log-likelihood ratio per deal pair."));
    }
    return el("section", { id: "match-section" }, parts);
  }

  // Each bot's faults a page of FAULT_PAGE at a time: the rows of a page are drawn when it is shown, so a
  // league of tens of thousands of faults opens as fast as one of a few.
  const FAULT_PAGE = 50;
  function faultsSection() {
    const byBot = {};
    for (const f of data.faults) (byBot[f.bot] = byBot[f.bot] || []).push(f);
    const parts = [el("h2", {}, `Faults (${data.faults.length})`)];
    if (!data.faults.length) parts.push(el("p", {}, "No bot committed a fault."));
    const row = (f) => el("tr", { class: "fault" },
      el("td", {}, gameLink(f.game)), el("td", {}, f.hand), el("td", {}, f.seat), el("td", {}, f.kind), el("td", {}, f.detail),
      el("td", { class: "where" }, f.where || "-"),
      el("td", {}, f.line ? el("code", {}, f.line) : "-"),
      el("td", {}, f.log ? el("details", { open: data.faults.length <= 20 }, el("summary", {}, f.log.lines.length ? `${f.log.name} (last ${f.log.lines.length} lines)` : `${f.log.name} (empty)`),
        el("pre", { class: "log" }, f.log.lines.join("\n"))) : "no log found"));
    Object.entries(byBot).forEach(([bot, faults], index) => {
      parts.push(el("h3", {}, `${bot}: ${faults.length}`));
      const body = el("tbody", {});
      const pager = el("div", { class: "pager", id: `faults-${index}-pager` });
      const pages = Math.ceil(faults.length / FAULT_PAGE);
      let page = 0;
      const draw = () => {
        body.replaceChildren(...faults.slice(page * FAULT_PAGE, (page + 1) * FAULT_PAGE).map(row));
        if (pages < 2) return;
        const button = (label, name, to, disabled) => el("button", { type: "button", id: `faults-${index}-${name}`, disabled, onclick: () => { page = to; draw(); } }, label);
        pager.replaceChildren(button("« first", "first", 0, page === 0), button("‹ previous", "prev", page - 1, page === 0),
          el("span", {}, ` page ${page + 1} of ${pages}: faults ${page * FAULT_PAGE + 1}–${Math.min((page + 1) * FAULT_PAGE, faults.length)} `),
          button("next ›", "next", page + 1, page >= pages - 1), button("last »", "last", pages - 1, page >= pages - 1));
      };
      draw();
      parts.push(pager, el("table", { class: "faults" }, el("thead", {}, el("tr", {}, ["game", "hand", "seat", "class", "the referee's message", "where", "line sent", "end of the bot's stderr log"].map((h) => el("th", {}, h)))), body));
    });
    return el("section", { id: "faults-section" }, parts);
  }

  function gameLink(id) {
    const summary = listed.byId.get(id);
    if (summary && !summary.embedded) return el("span", { class: "not-embedded", title: "not embedded in this page: see the note above the games list" }, id);
    return el("a", { href: `#game=${encodeURIComponent(id)}`, class: "game-link", "data-game": id }, id);
  }

  // The games list: the page's compact index (or the games of a dropped file), filtered, one page at a time.
  const PAGE = 50;
  const listed = { games: [], byId: new Map(), page: 0, shown: [], source: null };

  function setGames(games, source) {
    listed.games = games;
    listed.byId = new Map(games.map((g) => [g.id, g]));
    listed.page = 0;
    listed.source = source;
  }

  function gamesSection() {
    const section = el("section", { id: "games-section" });
    drawGames(section);
    return section;
  }

  function embedNote() {
    if (listed.source) return `The ${listed.games.length} games of ${listed.source}, dropped on this page: they replace the games the page was built with (reload the page to see those again).`;
    const e = data.embed;
    if (e.all) return `All ${e.total} games are embedded in this page.`;
    return `${e.embedded} of ${e.total} games are embedded in full (the cap is ${e.cap}, set with rookarena report --embed N): every faulted game that fit (${e.faulted}), then the closest (${e.closest}) and the most lopsided (${e.lopsided}) finishes, with their duplicate partners. Every game is listed; to view one that is not embedded, drop the directory's games.jsonl on this page (up to 400 MiB), or run rookarena replay DIR GAME_ID (or rookarena show DIR GAME_ID in a terminal).`;
  }

  function drawGames(section) {
    const games = listed.games;
    const bots = [...new Set(games.flatMap((g) => g.teams))].sort();
    const pairings = [...new Set(games.map((g) => g.pairing))].sort();
    const kinds = [...new Set(games.flatMap((g) => g.fault_kinds))].sort();
    const picks = {};
    const select = (id, label, options) => el("label", {}, `${label} `, picks[id] = el("select", { id, onchange: () => apply(true) }, options));
    const any = () => el("option", { value: "" }, "any");
    const text = el("input", { id: "filter-text", type: "search", placeholder: "game id", oninput: () => apply(true) });
    const filters = el("div", { class: "filters" },
      select("filter-bot", "bot", [any(), bots.map((o) => el("option", { value: o }, o))]),
      select("filter-pairing", "pairing", [any(), pairings.map((o) => el("option", { value: o }, o))]),
      select("filter-result", "result", [any(), el("option", { value: "won" }, "won by the bot"), el("option", { value: "lost" }, "lost by the bot"),
        el("option", { value: "draw" }, "drawn")]),
      select("filter-fault", "fault", [any(), el("option", { value: "*" }, "any fault"), el("option", { value: "-" }, "no fault"),
        kinds.map((k) => el("option", { value: k }, k))]),
      text);
    const count = el("p", { id: "games-count" });
    const body = el("tbody");
    const pager = el("div", { class: "pager" });
    const row = (g) => el("tr", { "data-game": g.id, class: g.embedded ? "" : "not-embedded" },
      el("td", {}, gameLink(g.id)), el("td", {}, g.teams[0]), el("td", { class: "num" }, `${g.scores[0]} – ${g.scores[1]}`), el("td", {}, g.teams[1]),
      el("td", {}, g.winner === null ? "draw" : g.winner), el("td", { class: "num" }, g.hands), el("td", {}, g.reason),
      el("td", { class: "num" }, g.faults ? `${g.faults} (${g.fault_kinds.join(", ")})` : "-"), el("td", {}, g.partner ? gameLink(g.partner) : "-"));
    function draw() {
      const pages = Math.max(1, Math.ceil(listed.shown.length / PAGE));
      listed.page = Math.max(0, Math.min(pages - 1, listed.page));
      const first = listed.page * PAGE;
      body.replaceChildren(...listed.shown.slice(first, first + PAGE).map(row));
      const button = (label, id, to, disabled) => el("button", { type: "button", id, disabled, onclick: () => { listed.page = to; draw(); } }, label);
      const jump = el("input", { type: "number", id: "games-page", min: 1, max: pages, value: listed.page + 1, "aria-label": "page",
        onchange: (e) => { listed.page = Number(e.target.value) - 1; draw(); } });
      pager.replaceChildren(button("« first", "games-first", 0, listed.page === 0), button("‹ previous", "games-prev", listed.page - 1, listed.page === 0),
        el("span", {}, " page ", jump, ` of ${pages} `), button("next ›", "games-next", listed.page + 1, listed.page >= pages - 1),
        button("last »", "games-last", pages - 1, listed.page >= pages - 1));
      count.textContent = `${listed.shown.length} of ${games.length} games match; ${listed.shown.length ? `${first + 1}–${Math.min(first + PAGE, listed.shown.length)}` : "none"} shown`;
    }
    function apply(reset) {
      const bot = picks["filter-bot"].value;
      const pairing = picks["filter-pairing"].value;
      const result = picks["filter-result"].value;
      const fault = picks["filter-fault"].value;
      const needle = text.value.trim().toLowerCase();
      listed.shown = games.filter((g) => {
        if (bot && !g.teams.includes(bot)) return false;
        if (pairing && g.pairing !== pairing) return false;
        if (needle && !g.id.toLowerCase().includes(needle)) return false;
        if (result === "draw" && g.winner !== null) return false;
        if (result === "won" || result === "lost") {
          if (g.winner === null) return false;
          if (bot && (result === "won") !== (g.winner === bot)) return false;
        }
        if (fault === "*" && !g.faults) return false;
        if (fault === "-" && g.faults) return false;
        if (fault && fault !== "*" && fault !== "-" && !g.fault_kinds.includes(fault)) return false;
        return true;
      });
      if (reset) listed.page = 0;
      draw();
    }
    section.replaceChildren(el("h2", {}, `Games (${games.length})`), el("p", { class: "help", id: "embed-note" }, embedNote()), filters, count, pager,
      el("div", { class: "scroll" }, el("table", { id: "games", class: "games" }, el("thead", {}, el("tr", {}, ["game", "team 0 (seats 0, 2)", "score", "team 1 (seats 1, 3)", "winner", "hands", "how it ended", "faults", "same deal"].map((h) => el("th", {}, h)))), body)));
    listed.shown = games;
    section.refilter = () => apply(false);
    apply(false);
  }

  // The page's games index: rows of small numbers naming `values` (see rookarena/web/model.py, Digest).
  function decodeGames(blob) {
    if (Array.isArray(blob)) return blob;
    const at = Object.fromEntries(blob.columns.map((name, i) => [name, i]));
    const values = blob.values;
    const embedded = new Set(blob.embedded);
    return blob.rows.map((r, i) => {
      const teams = [values[r[at.team0]], values[r[at.team1]]];
      const scores = [r[at.score0], r[at.score1]];
      const partner = r[at.partner];
      return { id: r[at.id], index: i, teams, pairing: [...teams].sort().join(" vs "), scores, winner: r[at.winner] < 0 ? null : teams[r[at.winner]],
        margin: Math.abs(scores[0] - scores[1]), hands: r[at.hands], reason: values[r[at.reason]], faults: r[at.faults],
        fault_kinds: values[r[at.kinds]], deal: r[at.deal] < 0 ? null : r[at.deal], partner: partner < 0 ? null : blob.rows[partner][at.id], embedded: embedded.has(i) };
    });
  }

  // The same summary from a whole record (a dropped file's games).
  function summaryOf(id, record, partner) {
    const teams = record.teams || [record.seats[0], record.seats[1]];
    const hands = record.hands || [];
    const result = record.result;
    const scores = result ? result.scores : hands.length ? hands[hands.length - 1].scores : [0, 0];
    const faults = record.faults || [];
    return { id, teams, pairing: [...teams].sort().join(" vs "), scores, winner: result && result.winner !== null ? teams[result.winner] : null,
      margin: Math.abs(scores[0] - scores[1]), hands: hands.length, reason: result ? result.reason : "stopped before its end",
      faults: faults.length, fault_kinds: [...new Set(faults.map((f) => String(f.kind)))].sort(), deal: record.league ? record.league.deal : null,
      partner: partner || null, embedded: true };
  }

  function leagueSection() {
    const l = data.league;
    const rules = l.rules;
    const duration = l.duration_seconds === null ? "not recorded" : `${Math.floor(l.duration_seconds / 60)} min ${Math.round(l.duration_seconds % 60)} s (from the results files' times)`;
    const items = [
      ["league", l.name], ["format", l.format], ["entries", l.entries.join(", ")],
      ["games", l.planned_games ? `${l.games} of ${l.planned_games} planned` : String(l.games)], ["hands", String(l.hands)],
      ["seed", l.seed === null ? "not recorded (each record holds its deal's seed)" : l.seed],
      ["duplicate deals", l.duplicate === null ? "-" : l.duplicate ? "yes: each deal twice, the teams swapped" : "no"],
      ["duration", duration],
      ["rules", rules ? `${rules.name} (hash ${rules.hash})${rules.preset ? `, from the preset ${rules.preset}` : ""}` : "-"],
      ["knobs changed from the preset", rules && rules.differences.length ? rules.differences.map((d) => `${d.knob}: ${JSON.stringify(d.value)} (preset ${JSON.stringify(d.preset)})`).join("; ") : "none"],
      ["results", l.directories.join(", ")],
      ["faults", String(l.faults)],
    ];
    const dl = el("dl", { class: "facts" }, items.map(([k, v]) => [el("dt", {}, k), el("dd", {}, v)]));
    const command = l.command ? el("div", {}, el("h3", {}, "To reproduce"), el("pre", { class: "command" }, l.command)) : null;
    return el("section", { id: "league-section" }, el("h2", {}, "League"), dl, command);
  }

  const games = {};
  for (const [id, record] of Object.entries(data.records || {})) games[id] = record;
  setGames(decodeGames(data.games || []), null);
  const summaries = {};
  for (const g of listed.games) summaries[g.id] = { partner: g.partner && games[g.partner] ? g.partner : null };
  const viewer = new Rook.Viewer(document.getElementById("viewer"), games, summaries);
  window.rookViewer = viewer;

  if (data.kind === "report") {
    const sections = [leagueSection(), standingsSection(), ratingsSection()];
    if (data.neighbours && data.neighbours.length) sections.push(neighboursSection());
    if (data.crosstable) sections.push(crosstableSection());
    if (data.match) sections.push(matchSection());
    sections.push(faultsSection(), gamesSection());
    document.getElementById("report").replaceChildren(...sections);
    document.getElementById("nav").replaceChildren(...[["league-section", "league"], ["standings-section", "standings"], ["ratings-section", "ratings"],
      ["neighbours-section", "neighbours"], ["crosstable-section", "crosstable"], ["match-section", "match"], ["faults-section", "faults"], ["games-section", "games"], ["viewer-section", "viewer"]]
      .filter(([id]) => id === "viewer-section" || document.getElementById(id)).map(([id, label]) => el("a", { href: `#${id}` }, label)));
  }
  document.getElementById("footer").textContent = printable(`made by rookarena ${data.version || ""}; this page works offline and loads nothing from elsewhere`);

  // #game=ID opens a game; &step=N and &seat=K (0-3) go to a moment and a seat's view of it.
  function openFromHash() {
    const params = new URLSearchParams(window.location.hash.slice(1));
    const id = params.get("game") || (data.kind === "replay" ? data.open : null);
    if (!id) return;
    if (params.has("seat")) viewer.seat = Number(params.get("seat"));
    viewer.open(id);
    if (params.has("step") && viewer.boards.length) viewer.go(Number(params.get("step")));
    if (data.kind === "report") showViewer();
  }

  // A chosen game's viewer comes first on the page, above the report, and is scrolled to.
  function showViewer() {
    const section = document.getElementById("viewer-section");
    const main = document.querySelector("main");
    if (main.firstElementChild !== section) main.prepend(section);
    section.classList.add("open");
    section.scrollIntoView();
  }
  window.addEventListener("hashchange", openFromHash);
  openFromHash();

  // A games.jsonl dropped anywhere on the page (or chosen with the file input) opens in the viewer.
  const note = document.getElementById("drop-note");
  // A browser reads at most about 512 MiB of text at once, and holds each record parsed: past this, a file
  // is refused with what to do instead rather than read as empty ("no game records in it").
  const dropLimit = () => window.rookDropLimit || 400 * 1024 * 1024;
  function load(file) {
    const viewerRoot = document.getElementById("viewer");
    const tooLarge = () => viewerRoot.replaceChildren(el("p", { class: "error" },
      `${file.name}: ${(file.size / 1048576).toFixed(0)} MiB is more than a browser can read at once (the page takes up to ${(dropLimit() / 1048576).toFixed(0)} MiB): open a game with rookarena replay DIR GAME_ID, or drop a file of fewer games, such as the lines of the games wanted (grep '"game_id":"ID"' games.jsonl > some.jsonl)`));
    if (file.size > dropLimit()) {
      tooLarge();
      if (data.kind === "report") showViewer();
      return;
    }
    const reader = new FileReader();
    reader.onerror = () => viewerRoot.replaceChildren(el("p", { class: "error" }, `${file.name}: could not be read: ${reader.error ? reader.error.message : "unknown error"}`));
    reader.onload = () => {
      try {
        const text = String(reader.result);
        if (!text.length && file.size) {
          tooLarge();
          return;
        }
        const parsed = Rook.parseRecords(text);
        if (!parsed.length) throw new Error("no game records in it");
        const ids = viewer.replace(parsed, file.name);
        setGames(ids.map((id) => summaryOf(id, viewer.games[id], (viewer.summaries[id] || {}).partner)), file.name);
        const section = document.getElementById("games-section");
        if (section) drawGames(section);
        viewer.open(ids[0]);
        if (data.kind === "report") showViewer();
      } catch (err) {
        document.getElementById("viewer").replaceChildren(el("p", { class: "error" }, `${file.name}: ${err.message}`));
      }
    };
    reader.readAsText(file);
  }
  document.addEventListener("dragover", (event) => { event.preventDefault(); note.hidden = false; });
  document.addEventListener("dragleave", (event) => { if (!event.relatedTarget) note.hidden = true; });
  document.addEventListener("drop", (event) => {
    event.preventDefault();
    note.hidden = true;
    const file = event.dataTransfer && event.dataTransfer.files[0];
    if (file) load(file);
  });
  document.getElementById("file-input").addEventListener("change", (event) => {
    if (event.target.files[0]) load(event.target.files[0]);
  });
})();
