//! rust-random: a pirate-arena bot (protocol v1.0, protocol/SPEC.md) that plays a random
//! legal action in every decision. stdin/stdout carry frames, stderr is the log.
//! Randomness: SplitMix64 seeded with start.bot_seed, as in the JS, C and Go kits.

mod frame;
mod value;

use std::io::{self, BufReader};

use frame::{read_message, write_message};
use value::Value;

const GAMES: [&str; 3] = ["dead-mans-draw", "opito-bay", "karibik"];

struct SplitMix64(u64);

impl SplitMix64 {
    fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9e37_79b9_7f4a_7c15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
        z ^ (z >> 31)
    }

    /// A number in [0, n): the next value modulo n.
    fn below(&mut self, n: usize) -> usize {
        (self.next() % n as u64) as usize
    }

    /// Fisher-Yates, last index first, as in the other kits.
    fn shuffle<T>(&mut self, items: &mut [T]) {
        for i in (1..items.len()).rev() {
            let j = self.below(i + 1);
            items.swap(i, j);
        }
    }
}

/// An action for a decision whose actions the arena does not enumerate (`legal` is nil).
fn build_action(game: &str, kind: &str, rng: &mut SplitMix64) -> Option<Value> {
    match (game, kind) {
        // One rum card per ship, Arriba..Fuego: 6 distinct values from -1..5; the card left
        // out is the tie-breaker. Every round a player holds all 7 cards again.
        ("karibik", "bribe") => {
            let mut cards = [-1i64, 0, 1, 2, 3, 4, 5];
            rng.shuffle(&mut cards);
            Some(Value::Array(cards[..6].iter().map(|&c| Value::Int(c)).collect()))
        }
        _ => None,
    }
}

fn decide(request: &Value, game: &str, rng: &mut SplitMix64) -> Value {
    if let Some(Value::Array(legal)) = request.get("legal") {
        if !legal.is_empty() {
            return legal[rng.below(legal.len())].clone();
        }
    }
    let kind = request.get("kind").and_then(Value::as_str).unwrap_or("?");
    build_action(game, kind, rng).unwrap_or_else(|| {
        eprintln!("rust-random: no builder for the non-enumerated decision {game}/{kind}; answering nil");
        Value::Nil
    })
}

fn main() -> io::Result<()> {
    let mut input = BufReader::new(io::stdin().lock());
    let mut output = io::stdout().lock();
    let mut game = String::new();
    let mut rng = SplitMix64(0);
    while let Some(message) = read_message(&mut input)? {
        match message.get("type").and_then(Value::as_str) {
            Some("hello") => {
                let protocol = message.get("protocol").and_then(Value::as_str).unwrap_or("");
                if !protocol.starts_with("1.") {
                    eprintln!("rust-random: the arena speaks protocol {protocol}; this bot speaks 1.x");
                    std::process::exit(1);
                }
                let games = Value::Array(GAMES.iter().map(|&g| Value::from(g)).collect());
                write_message(&mut output, &Value::map([
                    ("type", "hello".into()), ("protocol", "1.0".into()), ("name", "rust-random".into()),
                    ("version", "1.0.0".into()), ("games", games),
                ]))?;
            }
            Some("start") => {
                game = message.get("game").and_then(Value::as_str).unwrap_or("").to_owned();
                rng = SplitMix64(message.get("bot_seed").and_then(Value::as_u64).unwrap_or(0));
            }
            Some("request") => {
                let action = decide(&message, &game, &mut rng);
                let id = message.get("id").cloned().unwrap_or(Value::Nil);
                write_message(&mut output, &Value::map([("type", "action".into()), ("id", id), ("action", action)]))?;
            }
            Some("bye") => return Ok(()),
            _ => {} // "end" and unknown types need no answer
        }
    }
    Ok(())
}
