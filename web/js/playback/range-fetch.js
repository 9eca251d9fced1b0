// One HTTP Range request for part of a track's file. The server answers
// 206 with Content-Range (its audio is static files, served with byte
// ranges); a server or proxy that ignores the range answers 200 with the
// whole file, which is used as it is.

/**
 * Bytes [from, to] (inclusive) of `url`, as {bytes, offset, total}:
 * `offset` is the file position of bytes[0], `total` the file's length
 * (null when unknown).
 */
export async function fetchRange(url, from, to) {
  const response = await fetch(url, { headers: { Range: `bytes=${from}-${to}` }, priority: "high" });
  if (response.status !== 206 && !response.ok) throw new Error(`HTTP ${response.status}`);
  const bytes = new Uint8Array(await response.arrayBuffer());
  if (response.status !== 206) return { bytes, offset: 0, total: bytes.length, whole: true };
  // "bytes 1000-2000/455460"
  const match = /bytes\s+(\d+)-(\d+)\/(\d+|\*)/.exec(response.headers.get("Content-Range") || "");
  if (!match) throw new Error("a 206 without Content-Range");
  return { bytes, offset: Number(match[1]), total: match[3] === "*" ? null : Number(match[3]), whole: false };
}
