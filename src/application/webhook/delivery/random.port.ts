/** Uniform randomness in [0, 1), a port so tests fix the jitter. */
export abstract class Random {
  abstract next(): number;
}
