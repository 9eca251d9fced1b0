// Owner keys, kept in this browser's localStorage by station id. Holding a
// key is what makes a station "yours" until accounts exist.

const STORAGE = "wavelength.ownerKeys";

function readAll() {
  try {
    const value = JSON.parse(localStorage.getItem(STORAGE) || "{}");
    return value && typeof value === "object" ? value : {};
  } catch {
    return {};
  }
}

function writeAll(keys) {
  try {
    localStorage.setItem(STORAGE, JSON.stringify(keys));
  } catch {
    // Private mode or full storage: the key lives only for this page.
  }
}

const memory = {};

export const ownerKeys = {
  get(stationID) {
    return readAll()[stationID] || memory[stationID] || null;
  },
  set(stationID, key) {
    memory[stationID] = key;
    const keys = readAll();
    keys[stationID] = key;
    writeAll(keys);
  },
  remove(stationID) {
    delete memory[stationID];
    const keys = readAll();
    delete keys[stationID];
    writeAll(keys);
  },
  stationIDs() {
    return [...new Set([...Object.keys(readAll()), ...Object.keys(memory)])];
  },
};

/** A key must look like the server's: up to 64 characters, printable. */
export function plausibleKey(key) {
  return typeof key === "string" && /^[\x21-\x7e]{8,128}$/.test(key);
}
