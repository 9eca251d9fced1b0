// How long to wait, in words, from a refusal's Retry-After (seconds): the
// one formatter for "Try again in 15 minutes." across the app (too many
// wrong access codes, too many sign-in attempts, a busy server).

/** 1 → "1 second", 90 → "2 minutes", 7200 → "2 hours"; at least 1 second. */
export function waitText(seconds) {
  const s = Math.max(1, Math.ceil(Number(seconds) || 0));
  if (s < 60) return s === 1 ? "1 second" : `${s} seconds`;
  const minutes = Math.ceil(s / 60);
  if (minutes <= 90) return minutes === 1 ? "1 minute" : `${minutes} minutes`;
  const hours = Math.ceil(minutes / 60);
  return hours === 1 ? "1 hour" : `${hours} hours`;
}

/** "Try again in 15 minutes.", or with no usable wait "Try again in a moment." */
export function tryAgainText(seconds) {
  const s = Number(seconds);
  if (seconds === null || seconds === undefined || !Number.isFinite(s) || s <= 0) return "Try again in a moment.";
  return `Try again in ${waitText(s)}.`;
}
