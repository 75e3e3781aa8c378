// What the Node tests of the page's modules share: a Storage in memory, and the helpers that
// read a test's result as the browser tests once handed it over (JSON-like: null, not undefined).

/** A Storage (localStorage's interface) kept in memory; `keys` lists what it holds. */
export const memory = () => {
  const data = new Map();
  return {
    getItem: (k) => (data.has(k) ? data.get(k) : null),
    setItem: (k, v) => data.set(k, String(v)),
    removeItem: (k) => data.delete(k),
    keys: () => [...data.keys()],
  };
};

/** A value as the browser handed it over: no `undefined` (it came as null). */
export const plain = (value) => {
  if (value === undefined) return null;
  if (Array.isArray(value)) return value.map(plain);
  if (value && typeof value === "object" && Object.getPrototypeOf(value) === Object.prototype) {
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, plain(v)]));
  }
  return value;
};

/** Run a test's body and read its result plainly. */
export const run = async (body) => plain(await body());

/** Whether an array, string, set or object holds `item`. */
export const includes = (container, item) =>
  Array.isArray(container) || typeof container === "string" ? container.includes(item)
  : container instanceof Set ? container.has(item) : Object.hasOwn(container, item);
