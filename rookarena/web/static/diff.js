// The decision diff page: the counts by kind of decision, then every decision where NEW answered
// otherwise than OLD (and every fault), each opening the viewer at that seat's moment of decision.
"use strict";

(() => {
  const data = Rook.parseJSON(document.getElementById("rookarena-data").textContent);
  if (data.kind !== "diff") return;
  const { el } = Rook;
  const d = data.diff;
  const rows = [...d.differences, ...d.faults];

  const href = (row) => `#game=${encodeURIComponent(row.game)}&seat=${row.seat}&step=${row.step}`;
  function link(row) {
    if (!row.embedded) return el("span", { title: "not embedded in this page" }, row.game);
    return el("a", { href: href(row), class: "diff-link", "data-game": row.game, "data-seat": row.seat, "data-step": row.step }, row.game);
  }

  function table(id, list, newLabel, newText) {
    const head = ["game", "hand", "trick", "seat", "decision", "OLD chose", newLabel, "what the seat knew"];
    return el("div", { class: "scroll" }, el("table", { id, class: "diff" },
      el("thead", {}, el("tr", {}, head.map((h) => el("th", {}, h)))),
      el("tbody", {}, list.map((row) => el("tr", { class: row.suspect ? "suspect" : "", title: row.suspect ? "OLD had faulted earlier in this game: the referee may have chosen this for it" : null },
        el("td", {}, link(row)), el("td", { class: "num" }, row.hand), el("td", { class: "num" }, row.trick === null ? "-" : row.trick),
        el("td", { class: "num" }, row.seat), el("td", {}, row.kind), el("td", {}, el("code", {}, row.old), said(row.old_comment)),
        el("td", {}, newText(row), said(row.new_comment)), el("td", { class: "view" }, row.view))))));
  }

  // A bot's comment beside its decision: text only, never markup.
  function said(comment) {
    return typeof comment === "string" ? el("q", { class: "comment" }, comment) : null;
  }

  const total = d.counts[d.counts.length - 1];
  const facts = el("dl", { class: "facts" }, [
    ["NEW", `${d.new}${d.new_hello ? ` (${d.new_hello})` : ""}`], ["OLD", d.old], ["games", String(d.games)],
    ["decisions", String(total.decisions)], ["different", String(total.differ)], ["faults", String(total.faults)],
    ["not asked", String(total.skipped)],
  ].map(([k, v]) => [el("dt", {}, k), el("dd", {}, v)]));
  const counts = el("table", { id: "diff-counts", class: "diff-counts" },
    el("thead", {}, el("tr", {}, ["decision", "total", "differ", "faults", "skipped"].map((h) => el("th", {}, h)))),
    el("tbody", {}, d.counts.map((c) => el("tr", { "data-kind": c.kind }, el("th", {}, c.kind),
      el("td", { class: "num" }, c.decisions), el("td", { class: "num" }, c.differ), el("td", { class: "num" }, c.faults), el("td", { class: "num" }, c.skipped)))));
  const notes = [];
  if (d.restarts) notes.push(el("p", { class: "help" }, `NEW was started again ${d.restarts} times after a fault.`));
  if (d.suspect) notes.push(el("p", { class: "help" }, `${d.suspect} decisions were played by the referee in OLD's place, after a fault of OLD's (greyed): the recorded action is not OLD's own.`));
  const summary = el("section", { id: "diff-section" }, el("h2", {}, "Decision diff"),
    el("p", { class: "help" }, "NEW was sent exactly the lines OLD's seat was sent, and asked each of OLD's decisions. The game always follows OLD's choices: a different answer shows where NEW departs from OLD, not where its own choice would have led, nor whether it is better."),
    facts, counts, notes);
  const differences = el("section", { id: "differences-section" }, el("h2", {}, `Different decisions (${d.differences.length})`),
    d.differences.length ? table("diff-differences", d.differences, "NEW would choose", (row) => el("code", {}, row.new))
      : el("p", {}, "No decision differs."));
  const sections = [summary, differences];
  if (d.faults.length) {
    sections.push(el("section", { id: "diff-faults-section" }, el("h2", {}, `Decisions NEW did not answer legally (${d.faults.length})`),
      table("diff-faults", d.faults, "NEW", (row) => row.fault)));
  }
  if (d.skipped.length) {
    sections.push(el("section", { id: "diff-skipped-section" }, el("h2", {}, "Decisions not asked"),
      el("table", { id: "diff-skipped", class: "diff" }, el("thead", {}, el("tr", {}, ["game", "seat", "decisions", "why"].map((h) => el("th", {}, h)))),
        el("tbody", {}, d.skipped.map((s) => el("tr", {}, el("td", {}, s.game), el("td", { class: "num" }, s.seat),
          el("td", { class: "num" }, s.decisions), el("td", {}, s.why)))))));
  }
  const e = data.embed;
  if (e.total > data.games.length) {
    sections.push(el("p", { class: "help" }, `${data.games.length} of the ${e.total} games with a difference or a fault are embedded (the cap is ${e.cap}); open the others with rookarena replay.`));
  }
  document.getElementById("report").replaceChildren(...sections);
  document.getElementById("nav").replaceChildren(...[["diff-section", "counts"], ["differences-section", "differences"],
    ["diff-faults-section", "faults"], ["viewer-section", "viewer"]]
    .filter(([id]) => document.getElementById(id)).map(([id, label]) => el("a", { href: `#${id}` }, label)));

  // Above the viewer: the decision the link opened, with both answers.
  const viewer = document.getElementById("viewer");
  const note = el("p", { id: "diff-note", class: "difference", hidden: true });
  viewer.before(note);
  function showNote() {
    const params = new URLSearchParams(window.location.hash.slice(1));
    const row = rows.find((r) => r.game === params.get("game") && String(r.step) === params.get("step") && String(r.seat) === params.get("seat"));
    note.hidden = !row;
    if (row) {
      document.getElementById("viewer-section").scrollIntoView();
      note.replaceChildren(`${row.game}, hand ${row.hand}${row.trick === null ? "" : `, trick ${row.trick}`}: seat ${row.seat} (${row.kind}) is to act. OLD chose `,
        el("code", {}, row.old), row.fault ? `; NEW: ${row.fault}` : "; NEW would choose ", row.fault ? "" : el("code", {}, row.new),
        " (press → to see OLD's action).");
    }
  }
  window.addEventListener("hashchange", showNote);
  showNote();
})();
