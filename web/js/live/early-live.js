// A station link's live connection, opened before the app has loaded.
// early-station.js opens it once the station is known to be there (the
// same rule as the station screen's: a wrong link gets its 404 and no
// WebSocket), so the handshake and the clock probes happen while the rest
// of the app's modules still load, on a main thread that has little else to
// do: the probes' round trips are short and true, and the clock is ready by
// the time the station screen tunes in (the player waits for it before its
// first sound). Until then every message is kept with the time it arrived
// (performance time, stamped first thing, as LiveConnection stamps its
// own), and the probes sent with theirs; the station screen's
// LiveConnection takes the socket over (takeEarlyLive) and reads them as if
// they had just come, in order. Not taken within HOLD_MS (the app went
// elsewhere), the socket is closed. When a player starts before the app has
// loaded (early-player.js), its clock is given here (clockEarlyLive) and
// takes each probe as it is answered; those probes are then the clock's
// already, and only count for the taker. Its player is given the snapshot
// too: a station asleep until this socket woke it shows nothing playing
// over HTTP.
//
// Also what LiveConnection shares with it: the protocol version, the
// socket's address and the probes' schedule.

import { deviceKey } from "./device-key.js";

/**
 * The live protocol version this client speaks (`?v=`): 2, where updates
 * name the tracks it holds by id alone (known-tracks.js).
 */
export const PROTOCOL_VERSION = 2;

// Clock probes, as the Swift SDK sends them (ClientConfiguration): a burst
// of 8 probes 50 ms apart on connect, then 4 a second for 10 s, once a
// second until a minute, then every 5 s…
const BURST = 8;
const BURST_SPACING_MS = 50;
// …the first few of them closer together: the player waits for the clock
// before its first sound, so tuning in shouldn't wait out 150 ms of spacing.
const QUICK_PROBES = 4;
const QUICK_SPACING_MS = 20;

/** The wait (ms) after the `sent`-th probe of a connection open for `elapsed` ms. */
export function probeDelay(sent, elapsed) {
  if (sent < QUICK_PROBES) return QUICK_SPACING_MS;
  if (sent < BURST) return BURST_SPACING_MS;
  if (elapsed < 10_000) return 250;
  if (elapsed < 60_000) return 1000;
  return 5000;
}

/** The station WebSocket's address (`since`: the last revision held, if any). */
export function liveURL(stationID, revision = null) {
  const proto = location.protocol === "https:" ? "wss:" : "ws:";
  const params = new URLSearchParams();
  params.set("v", String(PROTOCOL_VERSION));
  params.set("listener", deviceKey);
  if (revision !== null) params.set("since", String(revision));
  return `${proto}//${location.host}/api/stations/${encodeURIComponent(stationID)}/live?${params}`;
}

/** A probe's nonce (16 characters, as LiveConnection's). */
export function probeNonce() {
  const bytes = new Uint8Array(8);
  crypto.getRandomValues(bytes);
  return "p" + Array.from(bytes, (b) => b.toString(16).padStart(2, "0")).join("").slice(0, 15);
}

// Kept this long for the station screen; the app routes a link to it in
// well under a second, or within its 2.5 s wait for the session.
const HOLD_MS = 15_000;
// More messages than a snapshot and its company: something is wrong.
const MAX_MESSAGES = 500;

let early = null;
// The clock of a player started early: {stationID, clock, onSnapshot}.
let probeClock = null;

/**
 * Gives the probes of station `stationID`'s early socket to `clock`, and
 * its snapshots to `onSnapshot` ({station, timeline, listeners}), from now on.
 */
export function clockEarlyLive(stationID, clock, onSnapshot = () => {}) {
  probeClock = { stationID, clock, onSnapshot };
  if (early && early.stationID === stationID) {
    for (const { data, at } of early.messages) feed(early, data, at);
  }
}

// A pong for a probe of `e`, to the early clock (its probe is then done);
// a snapshot, to the early player.
function feed(e, data, at) {
  if (!probeClock || probeClock.stationID !== e.stationID) return;
  const pong = data.includes('"pong"');
  if (!pong && !data.includes('"snapshot"')) return;
  let message;
  try {
    message = JSON.parse(data);
  } catch {
    return;
  }
  if (message && message.type === "snapshot" && message.snapshot && message.snapshot.timeline) {
    try {
      probeClock.onSnapshot(message.snapshot);
    } catch {}
    return;
  }
  if (!message || message.type !== "pong") return;
  const sent = e.pings.get(message.nonce);
  if (sent === undefined) return;
  e.pings.delete(message.nonce);
  const { clock } = probeClock;
  clock.addProbe({
    sent: clock.localAt(sent),
    received: clock.localAt(at),
    serverReceived: message.serverReceived,
    serverSent: message.serverSent,
    serverTime: message.serverTime,
  });
}

/** Opens station `stationID`'s live socket now, for the station screen to take. */
export function openEarlyLive(stationID) {
  if (early || typeof WebSocket === "undefined") return;
  let ws;
  try {
    ws = new WebSocket(liveURL(stationID));
  } catch {
    return;
  }
  const e = {
    stationID,
    ws,
    openedAt: null,
    messages: [], // {data, at}
    pings: new Map(), // nonce → performance time sent
    sent: 0,
    lastPingAt: null,
    pingTimer: null,
    expireTimer: null,
  };
  early = e;
  const ping = () => {
    if (early !== e || ws.readyState !== WebSocket.OPEN) return;
    const nonce = probeNonce();
    const text = JSON.stringify({ type: "ping", nonce });
    const at = performance.now();
    e.pings.set(nonce, at);
    ws.send(text);
    e.lastPingAt = at;
    e.sent += 1;
    e.pingTimer = setTimeout(ping, probeDelay(e.sent, performance.now() - e.openedAt));
  };
  ws.onopen = () => {
    e.openedAt = performance.now();
    performance.clearMarks("wavelength:open");
    performance.mark("wavelength:open");
    ping();
  };
  ws.onmessage = (event) => {
    const at = performance.now();
    e.messages.push({ data: event.data, at });
    feed(e, event.data, at);
    if (e.messages.length > MAX_MESSAGES) drop(e);
  };
  ws.onclose = () => drop(e);
  ws.onerror = () => {};
  e.expireTimer = setTimeout(() => drop(e), HOLD_MS);
}

function drop(e) {
  if (early === e) early = null;
  clearTimeout(e.pingTimer);
  clearTimeout(e.expireTimer);
  e.ws.onopen = e.ws.onmessage = e.ws.onclose = e.ws.onerror = null;
  try {
    e.ws.close(1000, "not taken");
  } catch {}
}

/**
 * Station `stationID`'s early socket, once, for LiveConnection to take over:
 * {ws, openedAt, messages, pings, sent, lastPingAt} (performance times), or
 * null when there is none, or it closed. Its handlers are cleared: the
 * taker sets its own in the same task, so no message falls between.
 */
export function takeEarlyLive(stationID) {
  const e = early;
  if (!e || e.stationID !== stationID) return null;
  early = null;
  clearTimeout(e.pingTimer);
  clearTimeout(e.expireTimer);
  const { ws } = e;
  ws.onopen = ws.onmessage = ws.onclose = ws.onerror = null;
  if (ws.readyState !== WebSocket.OPEN && ws.readyState !== WebSocket.CONNECTING) return null;
  return { ws, openedAt: e.openedAt, messages: e.messages, pings: e.pings, sent: e.sent, lastPingAt: e.lastPingAt };
}
