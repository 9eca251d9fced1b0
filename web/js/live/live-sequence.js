// The live connection's ordering rules, pure so they can be tested alone
// (live-connection.js applies them to the socket):
// - every server message on one connection carries `seq` 1, 2, 3, …; a
//   message past the next one expected means some were missed, and the
//   client asks for the whole state again (a `resync`), unless the message
//   is itself a snapshot, which carries the whole state;
// - timeline updates carry a `revision`; one older than the revision held
//   (a late message from before a reconnect) is dropped.

/**
 * Reads one message's `seq` against the last one seen on this connection.
 * Returns the seq to remember next and whether to ask for a resync.
 */
export function readSequence(lastSeq, message) {
  if (!message || !Number.isInteger(message.seq)) return { seq: lastSeq, resync: false };
  const expected = lastSeq + 1;
  return { seq: message.seq, resync: message.seq > expected && message.type !== "snapshot" };
}

/** Whether a timeline update at `revision` is older than the one held (null: none held yet). */
export function isStaleTimeline(held, revision) {
  return held !== null && revision < held;
}
