// A tiny test runner and assertions for the web app's pure modules, as
// plain ES modules (no npm). Test files register with `suite(name)`; the
// runner page (runner.html → run.js) imports them and runs every test.

const registered = [];

/** `const test = suite("frequency")`, then `test("accepts …", () => { … })`. */
export function suite(name) {
  return (title, fn) => registered.push({ name: `${name}: ${title}`, fn });
}

/** Runs every registered test (async ones awaited) → [{name, ok, error}]. */
export async function runAll() {
  const results = [];
  for (const { name, fn } of registered) {
    try {
      await fn();
      results.push({ name, ok: true, error: null });
    } catch (error) {
      // Chromium's stack starts with the message.
      results.push({ name, ok: false, error: (error && error.stack) || String(error) });
    }
  }
  return results;
}

export class AssertionError extends Error {
  name = "AssertionError";
}

const show = (value) => {
  try {
    return typeof value === "string" ? JSON.stringify(value) : JSON.stringify(value) ?? String(value);
  } catch {
    return String(value);
  }
};

export function assert(condition, message = "expected a true condition") {
  if (!condition) throw new AssertionError(message);
}

export function equal(actual, expected, message = "") {
  if (!Object.is(actual, expected)) throw new AssertionError(`${message ? `${message}: ` : ""}got ${show(actual)}, expected ${show(expected)}`);
}

export function deepEqual(actual, expected, message = "") {
  if (show(actual) !== show(expected)) throw new AssertionError(`${message ? `${message}: ` : ""}got ${show(actual)}, expected ${show(expected)}`);
}

/** Equal within a relative 1e-9 (as the Swift fixture test compares). */
export function close(actual, expected, message = "") {
  const ok = typeof actual === "number" && Math.abs(actual - expected) <= 1e-9 * Math.max(1, Math.abs(actual), Math.abs(expected));
  if (!ok) throw new AssertionError(`${message ? `${message}: ` : ""}got ${show(actual)}, expected ${show(expected)}`);
}
