// SplitMix64 seeded with start.bot_seed (SPEC.md §11): the same seed gives the same game.
// The C, Rust and Go starter kits use the same generator and the same `below`, so all four
// random bots make the same choices for the same seed.
const MASK = (1n << 64n) - 1n;

export class SplitMix64 {
  constructor(seed) {
    this.state = BigInt(seed) & MASK;
  }

  next() {
    this.state = (this.state + 0x9e3779b97f4a7c15n) & MASK;
    let z = this.state;
    z = ((z ^ (z >> 30n)) * 0xbf58476d1ce4e5b9n) & MASK;
    z = ((z ^ (z >> 27n)) * 0x94d049bb133111ebn) & MASK;
    return z ^ (z >> 31n);
  }

  // A number in [0, n): the next value modulo n.
  below(n) {
    return Number(this.next() % BigInt(n));
  }

  // Fisher-Yates, last index first, each swap index drawn with `below`.
  shuffle(items) {
    for (let i = items.length - 1; i > 0; i--) {
      const j = this.below(i + 1);
      [items[i], items[j]] = [items[j], items[i]];
    }
    return items;
  }
}
