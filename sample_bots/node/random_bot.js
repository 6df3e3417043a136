#!/usr/bin/env node
// A random Rook bot for the rook/1 protocol, in plain Node (no packages): the twin of
// ../python/random_bot.py. Run: node random_bot.js [--seed N] [--name NAME].
// One JSON object per line on stdin and stdout; the log goes to stderr. The random choices are reseeded
// on every "game" message from the game's seed (plus --seed), so a league replays exactly.
"use strict";
const readline = require("readline");

function option(name, fallback) {
  const i = process.argv.indexOf(name);
  return i >= 0 && i + 1 < process.argv.length ? process.argv[i + 1] : fallback;
}

// A small seeded generator (mulberry32).
function seeded(seed) {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const salt = Number(option("--seed", "0"));
let random = seeded(salt);
const name = option("--name", "random-js");

// One of the legal action strings. In the auction: pass or the lowest bid, with equal chance
// (uniformly random bids would climb to the maximum every hand).
function choose(request) {
  const legal = request.legal;
  const bids = legal.filter((action) => action.startsWith("bid "));
  if (bids.length > 0) {
    const amount = (action) => Number(action.split(" ")[1]);
    const lowest = bids.reduce((a, b) => (amount(b) < amount(a) ? b : a));
    return !legal.includes("pass") || random() < 0.5 ? lowest : "pass";
  }
  return legal[Math.floor(random() * legal.length)]; // a discard, a trump colour or a card to play
}

function send(message) {
  process.stdout.write(JSON.stringify(message) + "\n");
}

// Exit once everything written has been flushed: after "bye", or at EOF (the referee has gone).
let finished = false;
function finish() {
  finished = true;
  process.stdout.write("", () => process.exit(0));
}

const input = readline.createInterface({ input: process.stdin, terminal: false });
input.on("line", (line) => {
  if (finished || !line.trim()) return;
  const message = JSON.parse(line);
  if (message.type === "game") {
    random = seeded((message.seed ^ Math.imul(salt, 0x9e3779b1)) >>> 0); // this game's choices: from its seed
  } else if (message.type === "hello") {
    send({ type: "hello", name: name, version: "1.0", protocol: "rook/1" });
  } else if (message.type === "act") {
    send({ id: message.id, action: choose(message) });
  } else if (message.type === "bye") {
    finish();
  }
  // Everything else ("game", "deal", "played", "trick", ...) is news that needs no reply.
});
input.on("close", finish);
