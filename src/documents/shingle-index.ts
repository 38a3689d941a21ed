/**
 * Where each shingle of a document first occurred: 32-bit shingle hash → chunk number, in two typed
 * arrays (open addressing, linear probing): 8 bytes a slot, at most twice as many slots as shingles
 * (~130 MB for the 8 M of a 50 MB text). A JS Map of them, with a string per shingle, took the
 * detection of that text past 1.6 GB.
 */
const INITIAL_SLOTS = 1024;

export class ShingleIndex {
  private keys = new Uint32Array(INITIAL_SLOTS);
  /** The chunk number plus one; 0 marks an empty slot. */
  private values = new Uint32Array(INITIAL_SLOTS);
  private size = 0;

  /** The chunk the shingle first occurred in, or undefined. */
  get(hash: number): number | undefined {
    const mask = this.keys.length - 1;
    for (let slot = hash & mask; ; slot = (slot + 1) & mask) {
      const value = this.values[slot]!;
      if (value === 0) return undefined;
      if (this.keys[slot] === hash) return value - 1;
    }
  }

  /** Records the shingle's first chunk; a shingle already recorded keeps its first. */
  add(hash: number, chunk: number): void {
    if ((this.size + 1) * 2 > this.keys.length) this.grow();
    if (this.place(this.keys, this.values, hash >>> 0, chunk + 1)) this.size++;
  }

  /** Puts a key in the first free slot of its probe; false when the key is there already. */
  private place(keys: Uint32Array, values: Uint32Array, key: number, value: number): boolean {
    const mask = keys.length - 1;
    for (let slot = key & mask; ; slot = (slot + 1) & mask) {
      if (values[slot] === 0) {
        keys[slot] = key;
        values[slot] = value;
        return true;
      }
      if (keys[slot] === key) return false;
    }
  }

  private grow(): void {
    const [keys, values] = [this.keys, this.values];
    this.keys = new Uint32Array(keys.length * 2);
    this.values = new Uint32Array(keys.length * 2);
    for (let slot = 0; slot < keys.length; slot++)
      if (values[slot] !== 0) this.place(this.keys, this.values, keys[slot]!, values[slot]!);
  }
}
