//! A random rook/1 bot in Rust (the standard library only): copy this file to start your own bot.
//!
//! Build: rustc -O random_bot.rs -o random_bot      Run: ./random_bot [NAME]
//!
//! It reads one JSON object per line on stdin and writes one per line on stdout, flushed after every
//! line (a locked stdout is buffered). Logs go to stderr (eprintln!). Its hello declines the view
//! ("view":false), so every request is only {"type":"act",...,"legal":[...],"id":N}: no JSON crate is
//! needed, just the small reader below. In the auction it passes or makes the lowest bid with equal
//! chance; otherwise it plays a random legal action. Its random numbers are reseeded from each game's
//! "seed", so a league replays exactly. Only `choose` needs changing to make it smarter.

use std::io::{self, BufRead, Write};

/// splitmix64: a small, good generator; the same numbers on every machine.
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9e37_79b9_7f4a_7c15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
        z ^ (z >> 31)
    }
}

/// The text from where the value of a top-level `key` starts in a one-line JSON object.
fn value_of<'a>(line: &'a str, key: &str) -> Option<&'a str> {
    let bytes = line.as_bytes();
    let (mut depth, mut i) = (0, 0);
    while i < bytes.len() {
        match bytes[i] {
            b'"' => {
                let start = i + 1;
                i = start;
                while i < bytes.len() && bytes[i] != b'"' {
                    i += if bytes[i] == b'\\' { 2 } else { 1 };
                }
                let name = line.get(start..i)?;
                let rest = line.get(i + 1..)?.trim_start();
                if depth == 1 && name == key && rest.starts_with(':') {
                    return Some(rest[1..].trim_start());
                }
            }
            b'{' | b'[' => depth += 1,
            b'}' | b']' => depth -= 1,
            _ => {}
        }
        i += 1;
    }
    None
}

fn string<'a>(line: &'a str, key: &str) -> Option<&'a str> {
    let value = value_of(line, key)?.strip_prefix('"')?;
    value.split('"').next()
}

fn number(line: &str, key: &str) -> Option<i64> {
    let value = value_of(line, key)?;
    let end = value.find(|c: char| !(c.is_ascii_digit() || c == '-')).unwrap_or(value.len());
    value[..end].parse().ok()
}

/// The strings of the array at `key` (action strings hold no escapes).
fn strings(line: &str, key: &str) -> Vec<String> {
    let value = value_of(line, key).unwrap_or("[]");
    let inside = &value[1..value.find(']').unwrap_or(1)];
    inside.split(',').map(|s| s.trim().trim_matches('"').to_string()).filter(|s| !s.is_empty()).collect()
}

/// One of the legal actions. In the auction: pass or the lowest bid, with equal chance.
fn choose(legal: &[String], rng: &mut Rng) -> String {
    let bids: Vec<&String> = legal.iter().filter(|a| a.starts_with("bid ")).collect();
    if legal[0] == "pass" || !bids.is_empty() {
        let lowest = bids.iter().min_by_key(|a| a[4..].parse::<u32>().unwrap_or(u32::MAX));
        let has_pass = legal.iter().any(|a| a == "pass");
        return match lowest {
            Some(bid) if !has_pass || rng.next() % 2 == 0 => bid.to_string(),
            _ => "pass".to_string(),
        };
    }
    legal[(rng.next() % legal.len() as u64) as usize].clone() // a discard, a trump colour or a card
}

fn main() {
    let name = std::env::args().nth(1).unwrap_or_else(|| "random-rust".to_string());
    let mut rng = Rng(0);
    let stdin = io::stdin();
    let mut out = io::stdout().lock();
    for line in stdin.lock().lines() {
        let Ok(line) = line else { break }; // end of input (or an unreadable line): the referee has gone
        match string(&line, "type") {
            Some("hello") => {
                let hello = format!(
                    "{{\"type\":\"hello\",\"name\":\"{name}\",\"version\":\"1.0\",\"protocol\":\"rook/1\",\"view\":false}}"
                );
                writeln!(out, "{hello}").and_then(|_| out.flush()).ok(); // flush: nothing is sent until then
            }
            Some("game") => rng = Rng(number(&line, "seed").unwrap_or(0) as u64), // this game's choices
            Some("act") => {
                let legal = strings(&line, "legal");
                match number(&line, "id") {
                    Some(id) if !legal.is_empty() => {
                        let action = choose(&legal, &mut rng);
                        writeln!(out, "{{\"id\":{id},\"action\":\"{action}\"}}").and_then(|_| out.flush()).ok();
                    }
                    _ => eprintln!("cannot read the request: {line}"),
                }
            }
            Some("bye") => return,
            _ => {} // everything else ("deal", "played", "trick", ...) is news that needs no reply
        }
    }
}
