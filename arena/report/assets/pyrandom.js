/* Python's random.Random, bit for bit, for the engines' JavaScript twins (engines/<game>/rules.js):
   a replay viewer re-plays seed + actions, so every shuffle must come out as CPython's does.

   The generator is CPython's MT19937 (Modules/_randommodule.c): an int seed is cut into 32-bit
   words, least significant first, and fed to init_by_array. On top of it, the methods the
   engines call, each as Lib/random.py writes it: _randbelow_with_getrandbits (draw bit_length(n)
   bits until below n), shuffle (Fisher-Yates from the end), sample (the pool or the set
   algorithm, chosen by the same size rule), choice, randrange with one argument, random().
   tests/engines/test_rules_js.py checks every method against Python. */
"use strict";

class PyRandom {
  /* `seed`: a non-negative or negative integer as a decimal string, a BigInt or a safe number
     (Python takes abs() of an int seed). */
  constructor(seed) {
    let n = BigInt(seed);
    if (n < 0n) n = -n;
    const key = [];
    do { key.push(Number(n & 0xffffffffn)); n >>= 32n; } while (n > 0n);
    this.mt = new Uint32Array(624);
    this.index = 624;
    this.initByArray(key);
  }

  initGenrand(s) {
    const mt = this.mt;
    mt[0] = s >>> 0;
    for (let i = 1; i < 624; i++) {
      const prev = mt[i - 1] ^ (mt[i - 1] >>> 30);
      mt[i] = (Math.imul(1812433253, prev) + i) >>> 0;
    }
    this.index = 624;
  }

  initByArray(key) {
    const mt = this.mt;
    this.initGenrand(19650218);
    let i = 1, j = 0;
    for (let k = Math.max(624, key.length); k > 0; k--) {
      const prev = mt[i - 1] ^ (mt[i - 1] >>> 30);
      mt[i] = ((mt[i] ^ Math.imul(prev, 1664525)) + key[j] + j) >>> 0;
      i++; j++;
      if (i >= 624) { mt[0] = mt[623]; i = 1; }
      if (j >= key.length) j = 0;
    }
    for (let k = 623; k > 0; k--) {
      const prev = mt[i - 1] ^ (mt[i - 1] >>> 30);
      mt[i] = ((mt[i] ^ Math.imul(prev, 1566083941)) - i) >>> 0;
      i++;
      if (i >= 624) { mt[0] = mt[623]; i = 1; }
    }
    mt[0] = 0x80000000;
  }

  /* genrand_uint32: the next 32-bit output. */
  next32() {
    const mt = this.mt;
    if (this.index >= 624) {
      for (let k = 0; k < 624; k++) {
        const y = (mt[k] & 0x80000000) | (mt[(k + 1) % 624] & 0x7fffffff);
        mt[k] = mt[(k + 397) % 624] ^ (y >>> 1) ^ ((y & 1) ? 0x9908b0df : 0);
      }
      this.index = 0;
    }
    let y = mt[this.index++];
    y ^= y >>> 11;
    y ^= (y << 7) & 0x9d2c5680;
    y ^= (y << 15) & 0xefc60000;
    y ^= y >>> 18;
    return y >>> 0;
  }

  /* A number below 2**k, for 0 <= k <= 32 (the engines never ask for more). */
  getrandbits(k) {
    if (!(Number.isInteger(k) && k >= 0 && k <= 32)) throw new RangeError("getrandbits: k must be 0..32, got " + k);
    if (k === 0) return 0;
    return this.next32() >>> (32 - k);
  }

  /* Lib/random.py random(): 53 bits from two outputs. */
  random() {
    const a = this.next32() >>> 5, b = this.next32() >>> 6;
    return (a * 67108864 + b) / 9007199254740992;
  }

  /* _randbelow_with_getrandbits: uniform in [0, n), for 0 < n < 2**32. */
  randbelow(n) {
    if (!(Number.isInteger(n) && n > 0 && n <= 0xffffffff)) throw new RangeError("randbelow: n must be 1..2**32-1, got " + n);
    const k = 32 - Math.clz32(n);  // n.bit_length()
    let r = this.getrandbits(k);
    while (r >= n) r = this.getrandbits(k);
    return r;
  }

  /* randrange(stop): one argument only. */
  randrange(stop) {
    if (!(Number.isInteger(stop) && stop > 0)) throw new RangeError("empty range for randrange(" + stop + ")");
    return this.randbelow(stop);
  }

  choice(seq) {
    if (!seq.length) throw new RangeError("Cannot choose from an empty sequence");
    return seq[this.randbelow(seq.length)];
  }

  /* shuffle(x) in place. */
  shuffle(x) {
    for (let i = x.length - 1; i > 0; i--) {
      const j = this.randbelow(i + 1);
      const t = x[i]; x[i] = x[j]; x[j] = t;
    }
    return x;
  }

  /* sample(population, k) without counts. */
  sample(population, k) {
    const n = population.length;
    if (!(Number.isInteger(k) && k >= 0 && k <= n)) throw new RangeError("Sample larger than population or is negative");
    const result = new Array(k);
    let setsize = 21;
    if (k > 5) setsize += 4 ** Math.ceil(Math.log(k * 3) / Math.log(4));
    if (n <= setsize) {
      const pool = Array.from(population);
      for (let i = 0; i < k; i++) {
        const j = this.randbelow(n - i);
        result[i] = pool[j];
        pool[j] = pool[n - i - 1];
      }
    } else {
      const selected = new Set();
      for (let i = 0; i < k; i++) {
        let j = this.randbelow(n);
        while (selected.has(j)) j = this.randbelow(n);
        selected.add(j);
        result[i] = population[j];
      }
    }
    return result;
  }
}
globalThis.PyRandom = PyRandom;
