/**
 * A function of a string whose results are kept by their key: texts say the same words, phrases
 * and sentences again and again. The table is emptied past `max` keys, so a long-lived process
 * does not grow with everything it has read.
 */
export function remembered<V>(make: (key: string) => V, max: number): (key: string) => V {
  const kept = new Map<string, V>();
  return (key) => {
    let value = kept.get(key);
    if (value === undefined) {
      value = make(key);
      if (kept.size >= max) kept.clear();
      kept.set(key, value);
    }
    return value;
  };
}
